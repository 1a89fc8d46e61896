"""`clans-pi selftest`: walk a maker through the seat hardware and end with PASS or FAIL.

It checks the pin map, lights each GPIO seat's LED in the five clan colours, reports every
button press and release for a while, and lists the handhelds plugged in with their ids and
firmware versions. It runs with gpiozero's mock pin factory too (GPIOZERO_PIN_FACTORY=mock),
so it can be tried on any machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..rules.constants import CLANS
from ..rules.errors import ClansError
from ..settings.config import Config
from ..settings.options import shown_clan

Say = Callable[[str], None]


class Report:
    """Checks and their outcomes, printed as they happen."""

    def __init__(self, say: Say) -> None:
        self.say = say
        self.results: list[tuple[str, bool]] = []

    def check(self, name: str, ok: bool, detail: str = "") -> None:
        self.results.append((name, ok))
        self.say(f"  [{'ok' if ok else 'FAIL'}] {name}{': ' + detail if detail else ''}")

    @property
    def passed(self) -> bool:
        return all(ok for _name, ok in self.results)


def run_selftest(
    config: Config,
    *,
    say: Say = print,
    seconds: float = 15.0,
    step_s: float = 0.4,
    pin_factory: Any = None,
    manager_factory: Callable[[], Any] | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """Run every check; return True when all passed."""
    report = Report(say)
    seats = _gpio_part(config, report, seconds, step_s, pin_factory, clock, sleep)
    _handheld_part(config, report, seconds, manager_factory, clock, sleep)
    failed = [name for name, ok in report.results if not ok]
    if report.passed:
        say(f"selftest: PASS ({len(report.results)} checks{', ' + seats if seats else ''})")
    else:
        say(f"selftest: FAIL ({len(failed)} of {len(report.results)} checks: "
            f"{'; '.join(failed)})")
    return report.passed


def _gpio_part(config: Config, report: Report, seconds: float, step_s: float,
               pin_factory: Any, clock: Callable[[], float],
               sleep: Callable[[float], None]) -> str:
    from .gpio_seat import GpioUnavailable, make_gpio_seats
    from .pinmap import load_pinmap

    report.say("GPIO seats")
    try:
        pinmap = load_pinmap(config.pinout)
    except ClansError as exc:
        report.check("pin map", False, str(exc))
        return ""
    report.check("pin map", True, f"{pinmap.source}, seats {', '.join(map(str, pinmap.seats))}")
    wanted = sorted(s for s, kind in config.seats.items() if kind == "gpio")
    if not wanted:
        wanted = sorted(pinmap.seats)
        report.say("  no seat uses GPIO in the settings: testing every seat in the pin map")
    try:
        devices = make_gpio_seats(pinmap, wanted, pin_factory=pin_factory,
                                  fifth_clan=config.fifth_clan)
    except GpioUnavailable as exc:
        report.check("GPIO", False, str(exc))
        return ""
    except ClansError as exc:
        report.check("GPIO seats", False, str(exc))
        return ""
    try:
        for seat, dev in devices.items():
            pins = pinmap.seats[seat]
            shown = []
            for clan in CLANS:
                dev.light(clan)
                name = shown_clan(clan, config.fifth_clan)
                shown.append(name if dev.shown != (0.0, 0.0, 0.0) else f"{name}?")
                sleep(step_s)
            dev.light(None)
            report.check(f"seat {seat} LED", all("?" not in c for c in shown),
                         f"GPIO{pins.red}/{pins.green}/{pins.blue} showed {', '.join(shown)} "
                         "(look at it: each colour should be clearly different)")
        if seconds <= 0:
            report.say("  buttons: skipped (--seconds 0)")
            return f"{len(devices)} GPIO seats"
        report.say(f"  press and release every seat's button now ({seconds:g} s)")
        pressed: set[int] = set()
        end = clock() + seconds
        while clock() < end and len(pressed) < len(devices):
            now_ms = clock() * 1000
            for seat, dev in devices.items():
                for event in dev.poll(now_ms):
                    report.say(f"  seat {seat} button: {event}")
                    if event == "release":
                        pressed.add(seat)
            sleep(0.02)
        for seat in devices:
            report.check(f"seat {seat} button", seat in pressed,
                         f"GPIO{pinmap.seats[seat].button} pressed and released" if seat in
                         pressed else f"GPIO{pinmap.seats[seat].button}: no press seen "
                         "(check the wiring, or run again)")
    finally:
        for dev in devices.values():
            dev.close()
    return f"{len(devices)} GPIO seats"


def _handheld_part(config: Config, report: Report, seconds: float,
                   manager_factory: Callable[[], Any] | None, clock: Callable[[], float],
                   sleep: Callable[[float], None]) -> None:
    report.say("Handhelds")
    if manager_factory is None:
        from .handhelds import HandheldManager

        manager_factory = HandheldManager
    manager = manager_factory()
    found: dict[str, str] = {}
    foreign: list[str] = []
    twice: list[str] = []
    try:
        end = clock() + max(4.0, min(seconds, 6.0))
        while clock() < end:
            for event in manager.poll():
                if event[0] == "ready":
                    found[event[1]] = event[2]
                    report.say(f"  handheld {event[1]}: firmware {event[2]}")
                elif event[0] == "duplicate":
                    twice.append(str(event[2]))
                    report.say(f"  {event[2]}: says it is handheld {event[1]} too (two "
                               "handhelds with one id: only the first gets anything)")
                elif event[0] == "foreign":
                    foreign.append(str(event[1]))
                    report.say(f"  {event[1]}: has a Pico's USB id but does not speak our "
                               "protocol (flash firmware/, see firmware/README.md)")
            sleep(0.05)
    finally:
        manager.close()
    needed = sum(kind == "handheld" for kind in config.seats.values())
    if needed:
        report.check("handhelds", len(found) >= needed,
                     f"{len(found)} found, {needed} seat(s) use one")
    else:
        report.say(f"  {len(found)} found; no seat uses a handheld in the settings")
    if foreign:
        report.check("handheld firmware", False, f"{len(foreign)} device(s) not answering")
    if twice:
        report.check("handheld ids", False, f"{len(twice)} port(s) say an id already in use")
