"""A settings file a maker got wrong never stops the game (already handled; injected here
for the fault table)."""

from __future__ import annotations

import pytest

from clans_pi import cli
from clans_pi.ui import languages
from clans_pi.ui.app import App

from . import fault


@pytest.fixture(autouse=True)
def _english_after():
    yield
    assert languages.use("en") is None


def _start_with(tmp_path, monkeypatch, text: str) -> tuple[int, list[str]]:
    """Start the real program with a settings file holding ``text``; return its exit status
    and the notices it put on the screen."""
    shown: list[str] = []

    def run(self: App, *, first_frame_only: bool = False) -> None:
        self.pump()
        assert self.screen is not None and self.screen.name == "start"  # the game is up
        while self.notice is not None:
            shown.append(self.notice[0])
            self.tick(self.notice[1])
        self.quit()

    monkeypatch.setattr(App, "run", run)
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    status = cli.main(["play", "--config", str(config), "--state-dir", str(tmp_path)])
    return status, shown


@fault("settings", "A settings file that is not TOML",
       sees="one sentence naming the file and line; the game starts with the defaults",
       kept="the file as it is, the saved game")
def test_a_settings_file_that_is_not_toml(tmp_path, monkeypatch, capsys):
    status, shown = _start_with(tmp_path, monkeypatch, "[display\nsize = 800x480\n")
    assert status == 0
    assert len(shown) == 1 and "config.toml" in shown[0] and "line 1" in shown[0]
    assert "Traceback" not in capsys.readouterr().err
    assert (tmp_path / "config.toml").read_text(encoding="utf-8").startswith("[display\n")


@fault("settings", "Wrong values in the settings file",
       sees="one setting: a sentence with file, key, what is wrong, the default used; "
       "several: one notice with their number and the first, all of them in the log",
       kept="every other setting, the saved game")
def test_wrong_values_in_the_settings_file(tmp_path, monkeypatch, capsys):
    status, shown = _start_with(tmp_path, monkeypatch, 'sound = "loud"\nlanguage = "de"\n')
    assert status == 0
    assert [s.split(": ", 2)[-1] for s in shown] == [
        "sound: must be true or false, not 'loud'; using True"]
    assert all(s.startswith("Eine Einstellung") for s in shown), shown  # language was kept
    status, shown = _start_with(tmp_path, monkeypatch,
                                'sound = "loud"\nlanguage = "de"\n[display]\nrotate = 45\n')
    assert status == 0
    assert len(shown) == 1 and shown[0].startswith("2 Probleme in den Einstellungen; das "
                                                   "erste: "), shown
    assert "sound: must be true or false, not 'loud'; using True" in shown[0]
    err = capsys.readouterr().err
    assert "display.rotate: 45 is not one of 0, 90, 180, 270; using 0" in err
    assert "Traceback" not in capsys.readouterr().err
