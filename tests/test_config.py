"""The settings file: seats' devices; a bad file gives one line per problem and defaults."""

from __future__ import annotations

from pathlib import Path

from clans_pi.config import Config, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_seats_by_kind(tmp_path):
    config, problems = load_config(write(tmp_path, '[seats]\n1 = "gpio"\n2 = "handheld"\n'))
    assert problems == []
    assert [config.seat_kind(k) for k in range(4)] == ["gpio", "handheld", "screen", "screen"]
    assert config.wants_gpio and config.wants_handhelds


def test_no_file_means_defaults_quietly(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr("clans_pi.config.DEFAULT_PATHS", ())
    config, problems = load_config()
    assert problems == [] and config == Config(state_dir=config.state_dir)
    assert not config.wants_gpio


def test_every_problem_is_one_line_and_the_rest_still_applies(tmp_path):
    path = write(tmp_path, 'pinout = 5\n[seats]\n1 = "laser"\n7 = "gpio"\n2 = "gpio"\n'
                 '[extra]\nx = 1\n')
    config, problems = load_config(path)
    assert sorted(problems) == sorted([
        f"{path}: unknown setting 'extra' (ignored)",
        f"{path}: seats.1: 'laser' is not one of screen, gpio, handheld; this seat uses the "
        "screen",
        f"{path}: seats.7: seats are numbered 1 to 4",
        f"{path}: 'pinout' must be a path in quotes, not 5",
    ])
    assert config.seat_kind(0) == "screen" and config.seat_kind(1) == "gpio"
    assert config.pinout is None


def test_broken_toml_and_missing_file(tmp_path):
    config, problems = load_config(write(tmp_path, "[seats\n1 = gpio"))
    assert len(problems) == 1 and "not valid TOML" in problems[0]
    assert config.seats[1] == "screen"
    config, problems = load_config(tmp_path / "nope.toml")
    assert problems == [f"{tmp_path / 'nope.toml'}: no such file; using the defaults"]
