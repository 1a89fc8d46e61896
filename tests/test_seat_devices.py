"""SeatDevices with real GPIO seats on gpiozero's mock pins: each seat's LED shows only its
own clan while its button is held (R22), results at the end, and every failure to open the
hardware becomes a notice while the game goes on."""

from __future__ import annotations

import pytest

from clans_pi.hardware.gpio_seat import CLAN_RGB, DEBOUNCE_MS
from clans_pi.hardware.pinmap import load_pinmap
from clans_pi.hardware.seats import SeatDevices
from clans_pi.settings.config import Config
from tests.ui_helpers import finished_session, random_session, with_clans

PINS = load_pinmap().seats


def led(pin_factory, seat):
    p = PINS[seat]
    return tuple(float(pin_factory.pin(n).state) for n in (p.red, p.green, p.blue))


def hold(devices, pin_factory, seat, now):
    pin_factory.pin(PINS[seat].button).drive_low()
    devices.poll(now)
    return devices.poll(now + DEBOUNCE_MS + 5)


def release(devices, pin_factory, seat, now):
    pin_factory.pin(PINS[seat].button).drive_high()
    devices.poll(now)
    return devices.poll(now + DEBOUNCE_MS + 5)


def test_each_led_shows_only_its_own_seats_clan_while_held(pin_factory):
    config = Config(seats={1: "gpio", 2: "gpio", 3: "screen", 4: "screen"})
    with SeatDevices.open(config, pin_factory=pin_factory) as devices:
        assert devices.take_notices() == []
        assert devices.peek_kind(0) == "gpio" and devices.peek_kind(2) is None
        session = random_session(3, moves=4)
        devices.deal(session)
        assert led(pin_factory, 1) == (0, 0, 0)  # nothing shows until the button is held
        events = hold(devices, pin_factory, 1, 1000)
        assert (0, "press") in events
        own = session.private(0).own_clan
        assert led(pin_factory, 1) == pytest.approx(CLAN_RGB[own])
        assert led(pin_factory, 2) == (0, 0, 0)  # the other seat's LED stays dark
        assert (0, "release") in release(devices, pin_factory, 1, 2000)
        assert led(pin_factory, 1) == (0, 0, 0)
        hold(devices, pin_factory, 2, 3000)
        assert led(pin_factory, 2) == pytest.approx(CLAN_RGB[session.private(1).own_clan])
        release(devices, pin_factory, 2, 4000)
        devices.clear()  # a new game: the old clan is gone from the device
        hold(devices, pin_factory, 1, 5000)
        assert led(pin_factory, 1) == (0, 0, 0)
        release(devices, pin_factory, 1, 6000)


def test_results_light_the_winners(pin_factory):
    config = Config(seats={1: "gpio", 2: "gpio", 3: "gpio", 4: "screen"})
    session = finished_session(3)
    obs = session.public()
    with SeatDevices.open(config, pin_factory=pin_factory) as devices:
        devices.deal(session)
        devices.results(session)
        for seat in range(3):
            p = session.player_of(seat)
            lit = led(pin_factory, seat + 1) != (0, 0, 0)
            assert lit == (p in obs.winners)
            if lit:
                assert led(pin_factory, seat + 1) == pytest.approx(
                    CLAN_RGB[obs.revealed_clans[p]])


def test_a_stuck_button_becomes_a_notice(pin_factory):
    config = Config(seats={1: "gpio"})
    with SeatDevices.open(config, pin_factory=pin_factory) as devices:
        devices.deal(random_session(2))
        hold(devices, pin_factory, 1, 1000)
        assert (0, "stuck") in devices.poll(1000 + 6000)
        assert led(pin_factory, 1) == (0, 0, 0)
        assert devices.take_notices() == [
            "Seat 1's button seems stuck: its light stays off until it is let go"]
        release(devices, pin_factory, 1, 9000)


def test_hardware_that_cannot_open_leaves_the_seat_on_the_screen(pin_factory, tmp_path):
    bad = tmp_path / "pinout.toml"
    bad.write_text("[seat.1]\nbutton = 17\nred = 17\ngreen = 6\nblue = 13\n")
    config = Config(seats={1: "gpio", 2: "screen"}, pinout=bad)
    with SeatDevices.open(config, pin_factory=pin_factory) as devices:
        notices = devices.take_notices()
        assert len(notices) == 1 and "GPIO17 is used twice" in notices[0]
        assert notices[0].endswith("GPIO seats use the on-screen peek")
        assert devices.peek_kind(0) is None
        devices.deal(random_session(2))  # nothing to do, nothing breaks


@pytest.mark.parametrize(("fifth", "rgb"), [("black", (0.15, 0.15, 0.15)), ("white", (1, 1, 1))])
def test_the_fifth_clan_lights_as_the_settings_show_it(pin_factory, fifth, rgb):
    """display.fifth_clan reaches the seats' LEDs: a black fifth clan is a dim white, a
    white one every die fully on."""
    config = Config(seats={1: "gpio", 2: "gpio", 3: "gpio", 4: "gpio"}, fifth_clan=fifth)
    session = random_session(4, moves=4)
    seat = 2
    clans = ["red", "blue", "green", "yellow"]
    clans[session.player_of(seat)] = "black"
    session = with_clans(session, tuple(clans))
    assert session.private(seat).own_clan == "black"
    with SeatDevices.open(config, pin_factory=pin_factory) as devices:
        devices.deal(session)
        hold(devices, pin_factory, seat + 1, 1000)
        assert led(pin_factory, seat + 1) == pytest.approx(rgb)
        release(devices, pin_factory, seat + 1, 2000)
