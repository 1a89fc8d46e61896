"""The settings file: seats' devices; a bad file gives one line per problem and defaults."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

from clans_pi import i18n
from clans_pi.settings.config import Config, load_config


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
    monkeypatch.setattr("clans_pi.settings.config.DEFAULT_PATHS", ())
    monkeypatch.setattr("clans_pi.settings.config.BOOT_PATHS", ())
    config, problems = load_config()
    assert problems == [] and config == Config(state_dir=config.state_dir)
    assert not config.wants_gpio


def test_every_problem_is_one_line_and_the_rest_still_applies(tmp_path):
    path = write(tmp_path, 'pinout = 5\n[seats]\n1 = "laser"\n7 = "gpio"\n2 = "gpio"\n'
                 '[extra]\nx = 1\n')
    config, problems = load_config(path)
    assert sorted(problems) == sorted([
        f"{path}: unknown setting 'extra' (ignored)",
        f"{path}: seats.1: 'laser' is not one of screen, gpio, handheld, phone; this seat "
        "uses the screen",
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


EXAMPLE = Path(__file__).resolve().parents[1] / "clans_pi" / "settings" / "config.example.toml"


def _documented() -> str:
    """The example settings file with every documented default uncommented."""
    return re.sub(r"^#     (\w+ = .*)$", r"\1", EXAMPLE.read_text(encoding="utf-8"), flags=re.M)


def test_the_example_documents_every_setting_with_its_real_default(tmp_path):
    text = _documented()
    keys = set(re.findall(r"^(\w+) = ", text, flags=re.M)) - {"1", "2", "3", "4"}
    fields = {f.name for f in dataclasses.fields(Config)} - {"seats", "source"}
    assert keys == fields, "config.example.toml and Config disagree on the settings"
    config, problems = load_config(write(tmp_path, text))
    assert problems == []
    defaults = Config()
    for name in fields - {"pinout", "state_dir"}:  # those two: "automatic" by default
        assert getattr(config, name) == getattr(defaults, name), name


def test_display_language_and_sound_settings_are_read(tmp_path):
    config, problems = load_config(write(tmp_path, (
        'language = "en"\nsound = false\nvolume = 25\n[display]\nsize = "1024x600"\n'
        'fullscreen = true\nrotate = 180\ndim_after_minutes = 2.5\ndim_percent = 0\n'
        'backlight = "10-0045"\n')))
    assert problems == []
    assert (config.sound, config.volume, config.size, config.fullscreen, config.rotate) == (
        False, 25, (1024, 600), True, 180)
    assert (config.dim_after_minutes, config.dim_percent, config.backlight) == (
        2.5, 0, "10-0045")


def test_each_bad_display_or_sound_setting_is_one_line_and_keeps_its_default(tmp_path):
    path = write(tmp_path, (
        'language = "xx"\nsound = "yes"\nvolume = 101\nrotate = 90\n[display]\n'
        'size = "huge"\nfullscreen = 1\nrotate = 45\ndim_after_minutes = -1\n'
        'dim_percent = 12.5\nbacklight = 3\nbrightness = 5\n'))
    config, problems = load_config(path)
    assert sorted(problems) == sorted(f"{path}: {line}" for line in [
        "language: 'xx' is not one of en, de, fr, it, ja; using 'en'",
        "sound: must be true or false, not 'yes'; using True",
        "volume: must be 0 to 100, not 101; using 60",
        "unknown setting 'rotate' (ignored) (display settings go under [display])",
        "display.size: must be like \"800x480\" (200 to 8192 pixels a side), not 'huge'; "
        "using '800x480'",
        "display.fullscreen: must be true or false, not 1; using False",
        "display.rotate: 45 is not one of 0, 90, 180, 270; using 0",
        "display.dim_after_minutes: must be 0 to 1440, not -1; using 0",
        "display.dim_percent: must be a whole number, not 12.5; using 10",
        "display.backlight: must be text in quotes, not 3; using ''",
        "display.brightness: unknown setting (ignored)",
    ])
    assert config == Config(state_dir=config.state_dir, source=str(path))


@pytest.mark.parametrize("code", ["en", "de", "fr", "it", "ja"])
def test_every_language_is_translated_and_accepted(tmp_path, code):
    path = write(tmp_path, f'language = "{code}"\n')
    config, problems = load_config(path)
    assert (config.language, problems) == (code, [])
    if code != "en":  # English is the source language: its text is the message id
        assert (i18n.LOCALE_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po").is_file()


@pytest.mark.parametrize("value, why", [
    ('"Deutsch"', "'Deutsch' is not one of en, de, fr, it, ja"),
    ('"DE"', "'DE' is not one of en, de, fr, it, ja"),
    ("7", "7 is not one of en, de, fr, it, ja"),
])
def test_a_bad_language_is_one_line_and_english(tmp_path, value, why):
    path = write(tmp_path, f"language = {value}\n")
    config, problems = load_config(path)
    assert config.language == "en"
    assert problems == [f"{path}: language: {why}; using 'en'"]



def test_the_command_line_wins_over_the_settings_file(tmp_path, monkeypatch):
    from clans_pi import cli

    seen = []
    monkeypatch.setattr("clans_pi.ui.run.play", lambda *a, **kw: seen.append(kw) or 0)
    path = write(tmp_path, '[display]\nrotate = 90\nsize = "1024x600"\nfullscreen = true\n')
    assert cli.main(["play", "--config", str(path)]) == 0
    assert (seen[-1]["rotate"], seen[-1]["size"], seen[-1]["fullscreen"]) == (
        90, (1024, 600), True)
    assert cli.main(["play", "--config", str(path), "--rotate", "0", "--size", "640x400",
                     "--state-dir", str(tmp_path / "saves")]) == 0
    assert (seen[-1]["rotate"], seen[-1]["size"]) == (0, (640, 400))
    # The handhelds' pairings are kept where the game is saved.
    assert seen[-1]["state_dir"] == seen[-1]["config"].state_dir == tmp_path / "saves"


def test_computer_player_settings(tmp_path):
    config, problems = load_config(write(tmp_path, '[computer]\nthink_seconds = 2.5\n'
                                                   'hints = true\n'))
    assert problems == [] and (config.think_seconds, config.hints) == (2.5, True)
    path = write(tmp_path, 'hints = true\n[computer]\nthink_seconds = 0\nlevel = "hard"\n')
    config, problems = load_config(path)
    assert sorted(problems) == sorted(f"{path}: {line}" for line in [
        "unknown setting 'hints' (ignored) (computer player settings go under [computer])",
        "computer.think_seconds: must be 0.1 to 30, not 0; using 1.0",
        "computer.level: unknown setting (ignored)",
    ])
    assert (config.think_seconds, config.hints) == (1.0, False)


def test_search_workers_are_auto_or_a_whole_number(tmp_path):
    assert Config().workers is None  # "auto": every core but one
    for text, want in (('"auto"', None), ("1", 1), ("3", 3), ("16", 16)):
        config, problems = load_config(write(tmp_path, f"[computer]\nworkers = {text}\n"))
        assert problems == [] and config.workers == want, text
    for text in ("0", "17", "true", '"all"', "2.5", "-1"):
        path = write(tmp_path, f"[computer]\nworkers = {text}\n")
        config, problems = load_config(path)
        assert config.workers is None, text
        assert problems == [f"{path}: computer.workers: must be \"auto\" or 1 to 16, not "
                            f"{tomllib.loads('x = ' + text)['x']!r}; using \"auto\""]


def test_clan_marks_and_the_fifth_clan_are_read(tmp_path):
    config, problems = load_config(write(tmp_path, '[display]\nclan_marks = false\n'
                                                   'fifth_clan = "white"\n'))
    assert problems == [] and (config.clan_marks, config.fifth_clan) == (False, "white")
    assert (Config().clan_marks, Config().fifth_clan) == (True, "black")


def test_bad_clan_marks_or_fifth_clan_is_one_line_and_keeps_the_default(tmp_path):
    path = write(tmp_path, 'fifth_clan = "white"\n[display]\nclan_marks = "yes"\n'
                           'fifth_clan = "pink"\n')
    config, problems = load_config(path)
    assert problems == [f"{path}: {line}" for line in [
        "unknown setting 'fifth_clan' (ignored) (display settings go under [display])",
        "display.clan_marks: must be true or false, not 'yes'; using True",
        "display.fifth_clan: 'pink' is not one of black, white; using 'black'",
    ]]
    assert (config.clan_marks, config.fifth_clan) == (True, "black")
    config, problems = load_config(write(tmp_path, '[display]\nfifth_clan = "White"\n'))
    assert problems == [f"{tmp_path / 'config.toml'}: display.fifth_clan: 'White' is not one "
                        "of black, white; using 'black'"]


def test_a_display_size_the_game_cannot_lay_out_is_a_settings_problem(tmp_path):
    path = write(tmp_path, '[display]\nsize = "320x240"\n')
    config, problems = load_config(path)
    assert config.size == (800, 480)
    assert problems == [f"{path}: display.size: 320x240 is smaller than the game can draw: it "
                        "needs at least 480x320 (480 wide, 320 high); using '800x480'"]
    path = write(tmp_path, '[display]\nsize = "480x320"\nrotate = 90\n')
    config, problems = load_config(path)
    assert (config.size, config.rotate) == ((800, 480), 90)
    assert problems == [f"{path}: display.size: 480x320 turned by display.rotate 90° is "
                        "320x480, smaller than the game can draw: it needs at least 480x320 "
                        "(480 wide, 320 high); using '800x480'"]


def test_phones_listen_where_the_settings_say_and_a_bad_address_keeps_the_default(tmp_path):
    config, problems = load_config(write(tmp_path, '[seats]\n2 = "phone"\n[phones]\n'
                                         'listen = "192.168.4.1:9000"\n'))
    assert problems == [] and config.wants_phones and config.listen == ("192.168.4.1", 9000)
    path = write(tmp_path, '[phones]\nlisten = "everywhere"\nport = 3\n')
    config, problems = load_config(path)
    assert config.listen == ("0.0.0.0", 8080) and not config.wants_phones
    assert sorted(problems) == sorted([
        f"{path}: phones.listen: expected \"HOST:PORT\" like \"0.0.0.0:8080\", not "
        "'everywhere'; using 0.0.0.0:8080",
        f"{path}: phones.port: unknown setting (ignored)"])


# ------------------------------------------------------------------ the phones' Wi-Fi

HOTSPOT = '# written by install-pi.sh --hotspot\n[phones]\nwifi_name = "Clans Pi"\n' \
    'wifi_password = "k7qm-x3vt-9bfp-w2hc"\n'


def test_the_installers_hotspot_file_beside_the_settings_names_the_wifi(tmp_path):
    (tmp_path / "hotspot.toml").write_text(HOTSPOT, encoding="utf-8")
    config, problems = load_config(write(tmp_path, '[seats]\n1 = "phone"\n'))
    assert problems == []
    assert (config.wifi_name, config.wifi_password) == ("Clans Pi", "k7qm-x3vt-9bfp-w2hc")
    assert config.hotspot is not None
    assert config.hotspot.qr_payload == "WIFI:T:WPA;S:Clans Pi;P:k7qm-x3vt-9bfp-w2hc;;"
    assert config.seat_kind(0) == "phone"


def test_no_wifi_named_means_no_hotspot(tmp_path):
    config, problems = load_config(write(tmp_path, "[phones]\n"))
    assert problems == [] and config.hotspot is None


def test_the_settings_file_wins_over_the_hotspot_file_and_can_hide_it(tmp_path):
    (tmp_path / "hotspot.toml").write_text(HOTSPOT, encoding="utf-8")
    config, problems = load_config(write(
        tmp_path, '[phones]\nwifi_name = "Travel router; 5 GHz"\nwifi_password = ""\n'))
    assert problems == []
    assert config.hotspot is not None
    assert config.hotspot.qr_payload == r"WIFI:T:nopass;S:Travel router\; 5 GHz;;"
    config, problems = load_config(write(tmp_path, '[phones]\nwifi_name = ""\n'))
    assert problems == [] and config.hotspot is None


@pytest.mark.parametrize(("text", "why"), [
    ('wifi_name = 5\nwifi_password = "12345678"',
     "phones.wifi_name: must be text in quotes, not 5"),
    ('wifi_name = "x"\nwifi_password = "short"',
     "phones.wifi_password: 'short' must be 8 to 63 characters (or \"\" for an open network)"),
    (f'wifi_name = "{"n" * 33}"',
     f"phones.wifi_name: '{'n' * 33}' is longer than a Wi-Fi name may be (32 bytes)"),
    ('wifi_name = "Table"\nwifi_password = "pässwörter"',
     "phones.wifi_password: 'pässwörter' must be plain ASCII letters, digits, spaces and "
     "punctuation"),
    ('wifi_password = "12345678"',
     "phones.wifi_password: given without phones.wifi_name"),
])
def test_a_bad_wifi_setting_is_one_line_and_the_rest_still_loads(tmp_path, text, why):
    path = write(tmp_path, f'language = "de"\n[phones]\nlisten = "127.0.0.1:9000"\n{text}\n')
    config, problems = load_config(path)
    assert problems == [f"{path}: {why}; the Wi-Fi in this file is not shown"]
    assert config.hotspot is None
    assert config.language == "de" and config.listen == ("127.0.0.1", 9000)


def test_a_bad_settings_wifi_keeps_the_hotspot_files(tmp_path):
    (tmp_path / "hotspot.toml").write_text(HOTSPOT, encoding="utf-8")
    path = write(tmp_path, '[phones]\nwifi_name = "Other"\nwifi_password = "short"\n')
    config, problems = load_config(path)
    assert len(problems) == 1 and problems[0].startswith(f"{path}: phones.wifi_password: ")
    assert config.wifi_name == "Clans Pi"


@pytest.mark.parametrize(("text", "why"), [
    ("[phones\n", "not valid TOML"),
    ('[phones]\nwifi_name = "Clans Pi"\nwifi_password = "1234"\n',
     "phones.wifi_password: '1234' must be 8 to 63"),
    ('[phones]\nlisten = "x"\nwifi_name = "Clans Pi"\n',
     "phones.listen: unknown setting (ignored; only wifi_name and wifi_password belong here)"),
    ('wifi_name = "Clans Pi"\n',
     "unknown setting 'wifi_name' (ignored; only [phones] belongs here)"),
    ('phones = "Clans Pi"\n', "[phones] must be a table"),
])
def test_a_damaged_hotspot_file_is_one_line_naming_it_and_the_settings_still_load(
        tmp_path, text, why):
    hotspot = tmp_path / "hotspot.toml"
    hotspot.write_text(text, encoding="utf-8")
    config, problems = load_config(write(tmp_path, '[seats]\n2 = "phone"\n'))
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{hotspot}: {why}"), problems
    assert config.seat_kind(1) == "phone"


def test_an_unreadable_hotspot_file_is_one_line(tmp_path):
    (tmp_path / "hotspot.toml").mkdir()  # as unreadable as a file of root's, even to root
    config, problems = load_config(write(tmp_path, ""))
    assert len(problems) == 1 and "hotspot.toml: cannot read it (" in problems[0]
    assert config.hotspot is None


# --- the card's own file (clans-pi.toml on the boot partition) ------------------------------

def _boot_and_etc(tmp_path: Path, monkeypatch, etc: str | None, boot: str | None,
                  ) -> tuple[Path, Path]:
    etc_file, boot_file = tmp_path / "etc" / "config.toml", tmp_path / "boot" / "clans-pi.toml"
    for file, text in ((etc_file, etc), (boot_file, boot)):
        file.parent.mkdir(exist_ok=True)
        if text is not None:
            file.write_text(text, encoding="utf-8")
    monkeypatch.setattr("clans_pi.settings.config.DEFAULT_PATHS", (etc_file,))
    monkeypatch.setattr("clans_pi.settings.config.BOOT_PATHS", (boot_file,))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "nobody"))
    return etc_file, boot_file


def test_the_cards_own_file_wins_key_by_key_over_the_settings(tmp_path, monkeypatch):
    etc, boot = _boot_and_etc(
        tmp_path, monkeypatch,
        'language = "fr"\nvolume = 30\n[seats]\n1 = "gpio"\n2 = "handheld"\n'
        '[display]\nrotate = 90\nclan_marks = false\n',
        'language = "de"\n[seats]\n2 = "phone"\n[display]\nrotate = 180\n'
        '[phones]\nwifi_name = "Clans Pi"\nwifi_password = "table-for-four"\n')
    config, problems = load_config()
    assert problems == []
    assert config.source == f"{etc} + {boot}"
    assert config.language == "de" and config.volume == 30
    assert [config.seat_kind(k) for k in range(4)] == ["gpio", "phone", "screen", "screen"]
    assert (config.rotate, config.clan_marks) == (180, False)
    assert config.hotspot is not None and config.hotspot.name == "Clans Pi"


def test_the_cards_own_file_alone_and_as_windows_saves_it(tmp_path, monkeypatch):
    """Notepad may write a byte order mark and CRLF line ends; /etc may have no file."""
    _etc, boot = _boot_and_etc(tmp_path, monkeypatch, None, None)
    boot.write_bytes('\ufefflanguage = "it"\r\n[seats]\r\n3 = "phone"\r\n'.encode())
    config, problems = load_config()
    assert problems == [] and config.source == str(boot)
    assert config.language == "it" and config.seat_kind(2) == "phone"


def test_a_broken_cards_file_is_one_line_and_the_settings_still_apply(tmp_path, monkeypatch):
    _etc, boot = _boot_and_etc(tmp_path, monkeypatch, 'language = "fr"\n',
                               'language = "de"\n[seats\n2 = phone\n')
    config, problems = load_config()
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{boot}: not valid TOML (")
    assert problems[0].endswith("; the settings in it are not used")
    assert config.language == "fr"


def test_a_bad_setting_in_the_cards_file_keeps_the_settings_files_value(tmp_path, monkeypatch):
    _etc, boot = _boot_and_etc(tmp_path, monkeypatch, "[display]\nrotate = 90\n",
                               "[display]\nrotate = 45\n[seats]\n\"²\" = \"gpio\"\n")
    config, problems = load_config()
    assert config.rotate == 90
    assert sorted(problems) == sorted([
        f"{boot}: display.rotate: 45 is not one of 0, 90, 180, 270; using 90",
        f"{boot}: seats.²: seats are numbered 1 to 4",
    ])


def test_the_hotspot_file_is_read_when_only_the_cards_file_is_there(tmp_path, monkeypatch):
    etc, _boot = _boot_and_etc(tmp_path, monkeypatch, None, 'language = "ja"\n')
    (etc.parent / "hotspot.toml").write_text(HOTSPOT, encoding="utf-8")
    config, problems = load_config()
    assert problems == [] and config.language == "ja"
    assert config.hotspot is not None
