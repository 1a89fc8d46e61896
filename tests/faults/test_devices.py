"""Seat devices' faults: stray frames and devices on the handhelds' USB ports, handhelds
pulled out, buttons that bounce, stick or are held at the deal.

Every test here also checks R22 (no clan reaches a device, a log line or the screen that
should not have it) and that nothing raised or logged a traceback. The handheld rig (fake
handhelds and the real firmware on ptys, a fake clock) is tests/test_handhelds.py's; the
GPIO seats run on gpiozero's mock pins."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from gpiozero.pins.mock import MockFactory

from clans_pi.hardware import protocol
from clans_pi.hardware.gpio_seat import CLAN_RGB, DEBOUNCE_MS, STUCK_MS
from clans_pi.hardware.pinmap import load_pinmap
from clans_pi.hardware.seats import SeatDevices
from clans_pi.settings.config import Config
from tests.faults import fault
from tests.test_handhelds import (
    UID_A,
    UID_B,
    UID_C,
    FirmwareHandheld,
    Rig,
    clan_lines,
    dealt,
    frame,
)
from tests.ui_helpers import random_session

PINS = load_pinmap().seats
OFF = (0.0, 0.0, 0.0)


@pytest.fixture(autouse=True)
def no_traceback_and_no_clan_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No log line carries a traceback or says ERROR (the journal is the kiosk's terminal),
    and none names a clan (R22)."""
    caplog.set_level(logging.DEBUG)
    yield
    records = caplog.get_records("setup") + caplog.get_records("call")
    assert [r.getMessage() for r in records if r.exc_info or r.levelno >= logging.ERROR] == []
    assert clan_lines(records) == []


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    made = Rig(tmp_path)
    yield made
    made.close()


def led(pin_factory: MockFactory, seat: int) -> tuple[float, ...]:
    p = PINS[seat]
    return tuple(float(pin_factory.pin(n).state) for n in (p.red, p.green, p.blue))


# --------------------------------------------------------------------------- handhelds


@fault("device", "A foreign HELLO (another uid) on a paired handheld's port",
       sees="nothing: the seat stays, its handheld shows its own clan",
       kept="the seat's handheld and clan; the other seats' clans never reach it")
def test_a_foreign_hello_on_a_paired_port(rig: Rig, firmware: SimpleNamespace) -> None:
    pico = FirmwareHandheld(firmware, rig.clock)
    rig.attach(pico)
    b = rig.device(UID_B)
    rig.ready(pico, b)
    rig.pair(0, pico)
    rig.pair(1, b)
    rig.seats[0].set_clan("green")
    rig.seats[1].set_clan("blue")
    rig.run(300)
    rig.seat_events.clear()
    for uid in (UID_C, UID_B):  # a stranger's uid, then seat 2's
        pico.write_raw(frame(protocol.HELLO, 90, protocol.hello_body(uid, "1.1.0")))
        rig.run(4000)
    assert rig.seat_events == [] and rig.hub.take_notices() == []
    assert rig.seats[0].available and pico.hand.welcomed and pico.hand.hellos == 1
    assert pico.hand.clan == 2  # green, never blue
    pico.press()
    rig.run(100)
    assert pico.colour() == "green" and rig.seat_events == [(0, "press")]
    pico.press(False)
    rig.run(100)
    assert b.clan == 1 and rig.manager.counts["other_uid"] == 2


@fault("device", "A second device says it is a paired handheld (a forged or copied uid)",
       sees="a notice: a second handheld says it is seat N's and gets nothing until paired "
       "again; seat N's own goes on working",
       kept="the first handheld keeps its seat and clan; the second gets no clan")
def test_a_forged_uid_on_another_port(rig: Rig) -> None:
    a, b = dealt(rig)
    forger = rig.device(UID_B)
    rig.run(3000)
    forger.press(True)
    rig.run(200)
    forger.press(False)
    rig.seats[1].show_result("blue", True, 1)
    rig.run(500)
    assert forger.clan is None and forger.result is None and forger.shows() == []
    assert b.result == (1, True, 1) and a.shows() == ["red"]
    assert rig.seat_events == [(1, "duplicate")]
    notices = rig.hub.take_notices()
    assert notices == ["A second handheld says it is seat 2's and gets nothing; seat "
                       "2's own goes on working. To use the new one, pair it before the next "
                       "game."]
    assert not clan_lines([logging.makeLogRecord({'msg': notices[0]})])


@fault("device", "A second device says a paired handheld's uid while that handheld is silent "
       "for 2 to 3.5 s (a busy USB hub)",
       sees="a notice: a second handheld says it is seat N's and gets nothing until paired "
       "again; seat N's own goes on working",
       kept="the seat's clan goes only to the paired handheld (its port), which keeps its "
       "seat; the second gets no clan")
def test_a_uid_said_on_a_second_port_while_the_paired_one_is_silent(rig: Rig) -> None:
    a, b = dealt(rig)
    forger = rig.device(UID_B, hello=False)
    rig.run_until(lambda: forger.path in rig.opened)  # opened, waiting for its HELLO
    b.silent = True  # B's hub is busy: its port stays open and listed, nothing comes
    rig.run(2 * protocol.HEARTBEAT_MS + 300)  # past two heartbeats, before B is lost
    forger.link.send(protocol.HELLO, protocol.hello_body(UID_B, "1.1.0"))
    rig.run_until(lambda: forger.welcomed)
    rig.run(300)
    b.silent = False  # the hub catches up, within protocol.TIMEOUT_MS: B never went away
    rig.run(3000)
    rig.seats[1].show_result("blue", True, 1)
    rig.run(500)
    assert forger.kinds() == ["WELCOME", "CLEAR"] and forger.shows() == []
    assert forger.clan is None and forger.result is None
    assert b.clan == 1 and b.result == (1, True, 1) and a.shows() == ["red"]
    assert rig.seats[1].available and rig.seat_events == [(1, "duplicate")]
    notices = rig.hub.take_notices()
    assert notices == ["A second handheld says it is seat 2's and gets nothing; seat "
                       "2's own goes on working. To use the new one, pair it before the next "
                       "game."]
    forger.press(True)
    rig.run(200)
    assert rig.seat_events == [(1, "duplicate")]  # its button is nobody's


@fault("device", "Garbage from a handheld's serial port (fuzzed bytes)",
       sees="nothing: the handheld goes on working",
       kept="the seat's handheld and clan")
def test_garbage_from_a_serial_port(rig: Rig) -> None:
    a, b = dealt(rig)
    fuzz = random.Random(13)
    for _ in range(40):
        # Random bytes, with zeros (frame ends) often enough to make many short frames.
        a.write_raw(bytes(fuzz.choice((0, fuzz.randrange(256))) for _ in range(300)))
        rig.run(40)
    rig.run(protocol.DUP_MS + 200)
    assert rig.seat_events == [] and rig.seats[0].available and rig.manager.counts["lost"] == 0
    counts = rig.manager.counts
    assert counts["cobs"] + counts["crc"] + counts["short"] + counts["oversize"] > 40
    rig.seats[0].set_clan("yellow")
    rig.run(300)
    assert a.clan == 3 and a.shows() == ["red", "yellow"] and b.shows() == ["blue"]


@fault("device", "A handheld pulled out mid-game, then plugged back in",
       sees="a notice: seat N's handheld is gone, peek on the screen; then: it is back",
       kept="the seat's clan, sent again to the same handheld when it is back")
def test_a_handheld_pulled_out_and_plugged_back(rig: Rig) -> None:
    a, b = dealt(rig)
    rig.unplug(a)
    rig.run_until(lambda: rig.seat_events, ms=3000)
    assert rig.seat_events == [(0, "lost")] and not rig.seats[0].available
    assert rig.hub.take_notices() == [
        "Seat 1's handheld is gone: peek with the eye on the screen"]
    again = rig.device(UID_A)
    rig.run_until(lambda: again.clan == 0)
    assert rig.seat_events == [(0, "lost"), (0, "back")]
    assert rig.hub.take_notices() == ["Seat 1's handheld is back"]
    assert again.shows() == ["red"] and b.shows() == ["blue"]


# --------------------------------------------------------------------------- GPIO buttons


def hold(devices: SeatDevices, pin_factory: MockFactory, seat: int, now: int) -> list:
    pin_factory.pin(PINS[seat].button).drive_low()
    devices.poll(now)
    return devices.poll(now + DEBOUNCE_MS + 5)


def release(devices: SeatDevices, pin_factory: MockFactory, seat: int, now: int) -> list:
    pin_factory.pin(PINS[seat].button).drive_high()
    devices.poll(now)
    return devices.poll(now + DEBOUNCE_MS + 5)


@fault("device", "A GPIO button held (or shorted) when the clans are dealt",
       sees="its light stays dark; after 5 s a notice: seat N's button seems stuck",
       kept="the seat's clan, shown by the next press after it is let go")
def test_a_button_held_at_start_up(pin_factory: MockFactory) -> None:
    config = Config(seats={1: "gpio", 2: "gpio"})
    with SeatDevices.open(config, pin_factory=pin_factory) as devices:
        pin_factory.pin(PINS[1].button).drive_low()  # leant on before and during the deal
        events = devices.poll(0) + devices.poll(100)
        session = random_session(2)
        devices.deal(session)
        for now in range(200, 200 + STUCK_MS + 1000, 20):
            events += devices.poll(now)
            assert led(pin_factory, 1) == OFF and led(pin_factory, 2) == OFF, now
        assert events == [(0, "press"), (0, "stuck")]  # the press began before the deal
        assert devices.take_notices() == [
            "Seat 1's button seems stuck: its light stays off until it is let go"]
        t = 200 + STUCK_MS + 1000
        assert release(devices, pin_factory, 1, t) == [(0, "release")]
        assert hold(devices, pin_factory, 1, t + 200) == [(0, "press")]
        assert led(pin_factory, 1) == pytest.approx(CLAN_RGB[session.private(0).own_clan])
        assert led(pin_factory, 2) == OFF
        release(devices, pin_factory, 1, t + 400)


@fault("device", "A bouncing GPIO button (contacts chattering)",
       sees="one press and one release: the light on while held",
       kept="the seat's clan; no other seat's light changes")
def test_a_bouncing_button(pin_factory: MockFactory) -> None:
    config = Config(seats={1: "gpio", 2: "gpio"})
    with SeatDevices.open(config, pin_factory=pin_factory) as devices:
        session = random_session(2)
        devices.deal(session)
        pin = pin_factory.pin(PINS[2].button)
        events = devices.poll(0)
        t = 100
        for level in [0, 1] * 6 + [0]:  # chatter every 4 ms, then down
            pin.drive_low() if level == 0 else pin.drive_high()
            events += devices.poll(t)
            t += 4
        events += devices.poll(t + DEBOUNCE_MS + 5)
        assert led(pin_factory, 2) == pytest.approx(CLAN_RGB[session.private(1).own_clan])
        t += 1000
        for level in [1, 0] * 6 + [1]:  # and on the way up
            pin.drive_high() if level == 1 else pin.drive_low()
            events += devices.poll(t)
            t += 4
        events += devices.poll(t + DEBOUNCE_MS + 5)
        assert events == [(1, "press"), (1, "release")]
        assert led(pin_factory, 2) == OFF and led(pin_factory, 1) == OFF


@fault("device", "A GPIO button stuck down mid-game",
       sees="after 5 s its light goes off and a notice: seat N's button seems stuck",
       kept="the seat's clan, shown again once the button is let go and pressed")
def test_a_stuck_button(pin_factory: MockFactory) -> None:
    config = Config(seats={1: "gpio"})
    with SeatDevices.open(config, pin_factory=pin_factory) as devices:
        session = random_session(2)
        devices.deal(session)
        devices.poll(0)
        assert hold(devices, pin_factory, 1, 1000) == [(0, "press")]
        own = pytest.approx(CLAN_RGB[session.private(0).own_clan])
        assert led(pin_factory, 1) == own
        assert devices.poll(1000 + STUCK_MS + 100) == [(0, "stuck")]
        assert led(pin_factory, 1) == OFF
        assert devices.take_notices() == [
            "Seat 1's button seems stuck: its light stays off until it is let go"]
        release(devices, pin_factory, 1, 8000)
        hold(devices, pin_factory, 1, 9000)
        assert led(pin_factory, 1) == own
        release(devices, pin_factory, 1, 10000)
