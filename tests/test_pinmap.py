"""The pin map (hardware/pinout.toml): the shipped file, and one clear line for every problem."""

from __future__ import annotations

import functools
import importlib.util
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from gpiozero.pins.mock import MockFactory

from clans_pi.hardware import pinmap as pinmap_module
from clans_pi.hardware.pinmap import (
    DEFAULT_PATH,
    PinMapError,
    SeatPins,
    load_pinmap,
)
from clans_pi.rules.errors import ClansError

ROOT = Path(__file__).resolve().parent.parent

GOOD = """\
led_active_high = true
button_pull_up = true

[seat.1]
button = 17
red = 5
green = 6
blue = 13

[seat.2]
button = 27
red = 12
green = 16
blue = 20
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pinout.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _error(tmp_path: Path, text: str) -> str:
    path = _write(tmp_path, text)
    with pytest.raises(PinMapError) as info:
        load_pinmap(path)
    message = str(info.value)
    assert "\n" not in message
    prefix = f"{path}: "
    assert message.startswith(prefix), message
    return message[len(prefix):]


def test_the_shipped_pin_map_loads_with_four_seats_and_no_shared_pin() -> None:
    pins = load_pinmap(ROOT / "hardware" / "pinout.toml")
    assert sorted(pins.seats) == [1, 2, 3, 4]
    assert pins.led_active_high is True and pins.button_pull_up is True
    assert pins.seats[1] == SeatPins(button=17, red=5, green=6, blue=13)
    every = [p for seat in pins.seats.values() for p in (seat.button, seat.red, seat.green,
                                                          seat.blue)]
    assert len(every) == len(set(every)) == 16
    # Clear of the ID EEPROM, I2C, UART and SPI0.
    assert not set(every) & {0, 1, 2, 3, 14, 15, 7, 8, 9, 10, 11}
    assert len(pins.uses()) == 16 and pins.uses()[17] == "seat 1 button"


def test_default_path_is_the_repository_file_unless_etc_has_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert DEFAULT_PATH == ROOT / "hardware" / "pinout.toml"
    monkeypatch.setattr(pinmap_module, "SYSTEM_PATH", tmp_path / "missing.toml")
    assert load_pinmap().seats[4].button == 23
    system = tmp_path / "etc.toml"
    system.write_text(GOOD.replace("button = 17", "button = 4"), encoding="utf-8")
    monkeypatch.setattr(pinmap_module, "SYSTEM_PATH", system)
    loaded = load_pinmap()
    assert loaded.seats[1].button == 4 and sorted(loaded.seats) == [1, 2]


def test_a_file_inside_the_working_directory_is_named_relative_to_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "hardware").mkdir()
    path = tmp_path / "hardware" / "pinout.toml"
    path.write_text(GOOD.replace("red = 12", "red = 17"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PinMapError) as info:
        load_pinmap(path)
    assert str(info.value) == (
        "hardware/pinout.toml: GPIO17 is used twice: seat 1 button and seat 2 red")


def test_options_and_seats_are_read(tmp_path: Path) -> None:
    text = GOOD.replace("led_active_high = true", "led_active_high = false")
    text = text.replace("button_pull_up = true", "")
    loaded = load_pinmap(_write(tmp_path, text))
    assert loaded.led_active_high is False and loaded.button_pull_up is True  # the default
    assert loaded.seats == {1: SeatPins(17, 5, 6, 13), 2: SeatPins(27, 12, 16, 20)}
    assert loaded.source == str(tmp_path / "pinout.toml")


def test_a_pin_used_twice_names_the_pin_and_both_uses(tmp_path: Path) -> None:
    assert _error(tmp_path, GOOD.replace("red = 12", "red = 17")) == (
        "GPIO17 is used twice: seat 1 button and seat 2 red")
    assert _error(tmp_path, GOOD.replace("blue = 13", "blue = 6")) == (
        "GPIO6 is used twice: seat 1 green and seat 1 blue")
    # Seats are checked in numeric order whatever the file's order.
    swapped = GOOD.replace("[seat.1]", "[seat.x]").replace("[seat.2]", "[seat.1]")
    swapped = swapped.replace("[seat.x]", "[seat.2]").replace("blue = 20", "blue = 5")
    assert _error(tmp_path, swapped) == "GPIO5 is used twice: seat 1 blue and seat 2 red"


@pytest.mark.parametrize(("edit", "message"), [
    (("red = 5", "red = 0"),
     "[seat.1]: red = 0: GPIO0 is reserved by the Pi (HAT ID EEPROM, ID_SD); pick another pin"),
    (("red = 5", "red = 1"),
     "[seat.1]: red = 1: GPIO1 is reserved by the Pi (HAT ID EEPROM, ID_SC); pick another pin"),
    (("button = 17", "button = 2"),
     "[seat.1]: button = 2: GPIO2 is used by I2C (SDA); pick another pin"),
    (("button = 17", "button = 3"),
     "[seat.1]: button = 3: GPIO3 is used by I2C (SCL); pick another pin"),
    (("green = 16", "green = 14"),
     "[seat.2]: green = 14: GPIO14 is used by the UART (TXD); pick another pin"),
    (("green = 16", "green = 15"),
     "[seat.2]: green = 15: GPIO15 is used by the UART (RXD); pick another pin"),
    (("blue = 13", "blue = 28"),
     "[seat.1]: blue = 28 is out of range (BCM GPIO numbers run 0 to 27)"),
    (("blue = 13", "blue = -1"),
     "[seat.1]: blue = -1 is out of range (BCM GPIO numbers run 0 to 27)"),
    (("blue = 13", 'blue = "13"'),
     "[seat.1]: blue = '13' is not a whole number (a BCM GPIO number)"),
    (("blue = 13", "blue = 13.0"),
     "[seat.1]: blue = 13.0 is not a whole number (a BCM GPIO number)"),
    (("blue = 13", "blue = true"),
     "[seat.1]: blue = True is not a whole number (a BCM GPIO number)"),
    (("blue = 13\n", ""), "[seat.1]: missing pin 'blue'"),
    (("button = 27", "buton = 27"),
     "[seat.2]: unknown key 'buton' (expected button, red, green, blue)"),
    (("[seat.2]", "[seat.5]"), "[seat.5]: seats are numbered 1 to 4"),
    (("[seat.2]", "[seat.0]"), "[seat.0]: seats are numbered 1 to 4"),
    (("[seat.2]", "[seat.two]"), "[seat.two]: seats are numbered 1 to 4"),
    (("led_active_high = true", "led_active = true"),
     "unknown key 'led_active' (expected seat, led_active_high, button_pull_up)"),
    (("led_active_high = true", "led_active_high = 1"),
     "led_active_high must be true or false, not 1"),
    (("button_pull_up = true", 'button_pull_up = "yes"'),
     "button_pull_up must be true or false, not 'yes'"),
])
def test_every_problem_is_one_line_naming_the_file(
        tmp_path: Path, edit: tuple[str, str], message: str) -> None:
    old, new = edit
    assert old in GOOD
    assert _error(tmp_path, GOOD.replace(old, new, 1)) == message


def test_files_that_are_not_pin_maps(tmp_path: Path) -> None:
    assert _error(tmp_path, "led_active_high = true\n") == (
        "no seats: add tables like [seat.1] with button, red, green and blue")
    assert _error(tmp_path, "seat = 3\n") == (
        "no seats: add tables like [seat.1] with button, red, green and blue")
    assert _error(tmp_path, "[seat]\n1 = 17\n") == (
        "[seat.1] must be a table with button, red, green and blue")
    assert _error(tmp_path, "[seat.1\n").startswith("not valid TOML (")
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(PinMapError) as info:
        load_pinmap(missing)
    assert str(info.value) == f"{missing}: no such file"
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe")
    with pytest.raises(PinMapError) as info:
        load_pinmap(binary)
    assert str(info.value).startswith(f"{binary}: cannot read it (")


def test_pin_map_errors_are_clans_errors() -> None:
    assert issubclass(PinMapError, ClansError) and issubclass(PinMapError, ValueError)


# ------------------------------------------------------------ scripts/make/wiring.py

@functools.cache
def _make_wiring() -> ModuleType:
    script = ROOT / "scripts" / "make" / "wiring.py"
    spec = importlib.util.spec_from_file_location("make_wiring", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_wiring_diagram_is_up_to_date() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make" / "wiring.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_wiring_check_fails_when_the_pin_map_changes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wiring = _make_wiring()
    svg = ROOT / "hardware" / "wiring.svg"
    copy = tmp_path / "pinout.toml"
    text = (ROOT / "hardware" / "pinout.toml").read_text(encoding="utf-8")
    copy.write_text(text, encoding="utf-8")
    assert wiring.main(["--check", "--pinout", str(copy), "--out", str(svg)]) == 0
    copy.write_text(text.replace("blue = 25", "blue = 4"), encoding="utf-8")
    assert wiring.main(["--check", "--pinout", str(copy), "--out", str(svg)]) == 1
    assert "out of date" in capsys.readouterr().err
    out = tmp_path / "wiring.svg"
    assert wiring.main(["--pinout", str(copy), "--out", str(out)]) == 0
    assert wiring.main(["--check", "--pinout", str(copy), "--out", str(out)]) == 0
    drawn = out.read_text(encoding="utf-8")
    assert "GPIO4 · pin 7" in drawn and "GPIO25 · pin 22" not in drawn
    assert "GPIO25 · pin 22" in svg.read_text(encoding="utf-8")
    copy.write_text(text.replace("blue = 25", "blue = 17"), encoding="utf-8")
    assert wiring.main(["--check", "--pinout", str(copy), "--out", str(svg)]) == 2
    assert capsys.readouterr().err == (
        f"make_wiring: {copy}: GPIO17 is used twice: seat 1 button and seat 4 blue\n")


def test_the_wiring_diagram_labels_every_seat_wire_and_resistor() -> None:
    wiring = _make_wiring()
    pins = load_pinmap(ROOT / "hardware" / "pinout.toml")
    svg = wiring.generate(pins)
    assert svg == wiring.generate(pins)  # deterministic
    for seat in pins.seats.values():
        for gpio in (seat.button, seat.red, seat.green, seat.blue):
            assert f"GPIO{gpio} · pin {wiring.PHYSICAL[gpio]}" in svg
    assert svg.count("150 Ω</text>") == 4 and svg.count("68 Ω</text>") == 8
    assert svg.count("common cathode") == 8 and "internal pull-up" in svg
    variant = wiring.generate(replace(pins, led_active_high=False, button_pull_up=False))
    assert "common anode" in variant and "internal pull-down" in variant
    assert "common cathode" not in variant


def test_the_drawn_header_matches_gpiozero() -> None:
    wiring = _make_wiring()
    header = MockFactory().board_info.headers["J8"].pins
    assert {pin: info.name for pin, info in header.items()} == wiring.HEADER


def test_no_pin_map_anywhere_says_where_it_looked_and_what_to_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # As after a plain `pip install` (no installer, no checkout): neither file exists.
    monkeypatch.setattr(pinmap_module, "SYSTEM_PATH", tmp_path / "etc" / "pinout.toml")
    monkeypatch.setattr(pinmap_module, "DEFAULT_PATH", tmp_path / "site" / "pinout.toml")
    with pytest.raises(PinMapError) as info:
        load_pinmap()
    message = str(info.value)
    assert message.startswith("no pin map: neither ")
    assert str(tmp_path / "etc" / "pinout.toml") in message and "pinout = " in message
