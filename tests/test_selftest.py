"""`clans-pi selftest` on gpiozero's mock pins and a fake handheld manager: every check
reported, button presses seen, handhelds listed, PASS only when everything passed."""

from __future__ import annotations

import subprocess
import sys

import pytest

from clans_pi.hardware.pinmap import load_pinmap
from clans_pi.hardware.selftest import run_selftest
from clans_pi.settings.config import Config


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0
        self.actions: dict[int, list] = {}
        self.ticks = 0

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.t += max(s, 0.001)
        self.ticks += 1
        for act in self.actions.pop(self.ticks, []):
            act()


class FakeManager:
    def __init__(self, events):
        self.events = list(events)
        self.closed = False

    def poll(self):
        out, self.events = self.events, []
        return out

    def close(self):
        self.closed = True


def _run(config, pin_factory, clock, manager, seconds=2.0):
    lines: list[str] = []
    ok = run_selftest(config, say=lines.append, seconds=seconds, step_s=0.0,
                      pin_factory=pin_factory, manager_factory=lambda: manager, clock=clock,
                      sleep=clock.sleep)
    return ok, lines


def test_pass_when_every_button_is_pressed_and_the_handheld_answers(pin_factory):
    config = Config(seats={1: "gpio", 2: "gpio", 3: "handheld", 4: "screen"})
    pins = load_pinmap().seats
    clock = FakeClock()
    # Press and release each seat's button a little after the LEDs (5 colours x 2 seats).
    for k, seat in enumerate((1, 2)):
        pin = pin_factory.pin(pins[seat].button)
        clock.actions.setdefault(12 + 10 * k, []).append(pin.drive_low)
        clock.actions.setdefault(17 + 10 * k, []).append(pin.drive_high)
    manager = FakeManager([("ready", "e6614c311b7e5a2f", "1.0.0")])
    ok, lines = _run(config, pin_factory, clock, manager)
    text = "\n".join(lines)
    assert ok, text
    assert "[ok] seat 1 LED" in text and "[ok] seat 2 LED" in text
    assert "seat 1 button: press" in text and "seat 2 button: release" in text
    assert "handheld e6614c311b7e5a2f: firmware 1.0.0" in text
    assert lines[-1].startswith("selftest: PASS")
    assert manager.closed


def test_fail_names_what_failed(pin_factory):
    config = Config(seats={1: "gpio", 2: "handheld", 3: "screen", 4: "screen"})
    manager = FakeManager([("foreign", "/dev/ttyACM3")])
    ok, lines = _run(config, pin_factory, FakeClock(), manager, seconds=0.5)
    assert not ok
    assert "[FAIL] seat 1 button: GPIO17: no press seen" in "\n".join(lines)
    assert lines[-1] == ("selftest: FAIL (3 of 5 checks: seat 1 button; handhelds; "
                         "handheld firmware)")


def test_two_handhelds_with_one_id_fail(pin_factory):
    config = Config(seats={1: "handheld"})
    manager = FakeManager([("ready", "e6614c311b7e5a2f", "1.1.0"),
                           ("duplicate", "e6614c311b7e5a2f", "/dev/ttyACM1")])
    ok, lines = _run(config, pin_factory, FakeClock(), manager, seconds=0.5)
    assert not ok
    assert ("  /dev/ttyACM1: says it is handheld e6614c311b7e5a2f too (two handhelds with one "
            "id: only the first gets anything)") in lines
    assert lines[-1].startswith("selftest: FAIL") and lines[-1].endswith("; handheld ids)")


def test_a_bad_pin_map_is_one_failed_check(pin_factory, tmp_path):
    bad = tmp_path / "pinout.toml"
    bad.write_text("[seat.1]\nbutton = 17\nred = 17\ngreen = 6\nblue = 13\n")
    config = Config(seats={1: "gpio"}, pinout=bad)
    ok, lines = _run(config, pin_factory, FakeClock(), FakeManager([]), seconds=0)
    assert not ok
    assert any("[FAIL] pin map" in line and "GPIO17 is used twice" in line for line in lines)


@pytest.mark.slow
def test_the_command_runs_on_the_mock_factory():
    env = {"GPIOZERO_PIN_FACTORY": "mock", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "clans_pi.cli", "selftest", "--seconds", "0",
                           "--step", "0"], capture_output=True, text=True, timeout=60,
                          env=env, check=False)
    assert "Traceback" not in proc.stderr
    assert "[ok] seat 4 LED" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1].startswith("selftest: ")
