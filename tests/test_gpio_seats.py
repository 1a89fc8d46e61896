"""GPIO seats on gpiozero's mock pins: the held button shows the clan, our debounce, a stuck
button, clearing, closing, and opening seats from the pin map (or failing to, clearly)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import LED, RGBLED, Button, Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from clans_pi.hardware.gpio_seat import (
    CLAN_RGB,
    DEBOUNCE_MS,
    STUCK_MS,
    WHITE_RGB,
    GpioSeat,
    GpioUnavailable,
    clan_rgb,
    lgpio_install_hint,
    make_gpio_seats,
)
from clans_pi.hardware.pinmap import PinMap, PinMapError, SeatPins, load_pinmap
from clans_pi.rules.constants import CLANS

ROOT = Path(__file__).resolve().parent.parent
PINS = SeatPins(button=17, red=5, green=6, blue=13)


@pytest.fixture
def seat(pin_factory: MockFactory) -> Iterator[GpioSeat]:
    # A stopped clock: an edge counts as seen at the poll that takes it, whatever time the
    # test took in between (on a loaded machine a few real ms would move it earlier).
    with GpioSeat(PINS, pin_factory=pin_factory, clock=lambda: 0.0) as made:
        yield made
        # Closing while held waits on gpiozero's hold thread.
        pin_factory.pin(PINS.button).drive_high()


def led(pin_factory: MockFactory, pins: SeatPins = PINS) -> tuple[float, float, float]:
    r, g, b = (float(pin_factory.pin(n).state) for n in (pins.red, pins.green, pins.blue))
    return (r, g, b)


def button(pin_factory: MockFactory, pins: SeatPins = PINS) -> MockPin:
    return pin_factory.pin(pins.button)


OFF = (0.0, 0.0, 0.0)


# ------------------------------------------------------------ holding shows the clan


@pytest.mark.parametrize("clan", CLANS)
def test_holding_the_button_shows_the_clan_and_letting_go_turns_it_off(
        pin_factory: MockFactory, seat: GpioSeat, clan: str) -> None:
    seat.set_clan(clan)
    assert seat.poll(0) == [] and led(pin_factory) == OFF
    button(pin_factory).drive_low()  # pull-up button: pressed is low
    assert seat.poll(5) == []
    assert seat.poll(5 + DEBOUNCE_MS - 2) == [] and led(pin_factory) == OFF  # not yet stable
    assert seat.poll(5 + DEBOUNCE_MS + 2) == ["press"]
    assert seat.held and led(pin_factory) == pytest.approx(CLAN_RGB[clan])
    button(pin_factory).drive_high()
    assert seat.poll(500) == []
    assert led(pin_factory) == pytest.approx(CLAN_RGB[clan])  # a release is debounced too
    assert seat.poll(500 + DEBOUNCE_MS + 2) == ["release"]
    assert not seat.held and led(pin_factory) == OFF


def test_clan_colours() -> None:
    assert set(CLAN_RGB) == set(CLANS)
    assert CLAN_RGB["red"] == (1, 0, 0) and CLAN_RGB["green"] == (0, 1, 0)
    assert CLAN_RGB["blue"] == (0, 0, 1)
    r, g, b = CLAN_RGB["yellow"]
    assert r == 1 and 0 < g < 1 and b == 0
    assert CLAN_RGB["black"] == (0.15, 0.15, 0.15)  # a dim white: an LED cannot be black


def test_nothing_shows_without_a_clan(pin_factory: MockFactory, seat: GpioSeat) -> None:
    seat.poll(0)
    button(pin_factory).drive_low()
    assert seat.poll(10) == [] and seat.poll(100) == ["press"] and led(pin_factory) == OFF
    seat.set_clan("red")  # dealt while held: that press began before, it shows nothing
    assert led(pin_factory) == OFF and seat.poll(200) == [] and led(pin_factory) == OFF
    button(pin_factory).drive_high()
    seat.poll(300)
    assert seat.poll(400) == ["release"]


def test_bounce_is_filtered_into_one_press_and_one_release(
        pin_factory: MockFactory, seat: GpioSeat) -> None:
    seat.set_clan("blue")
    events: list[str] = []
    events += seat.poll(0)
    pin = button(pin_factory)
    t = 100
    for _ in range(6):  # contacts chattering every 4 ms while pressed
        pin.drive_low()
        events += seat.poll(t)
        pin.drive_high()
        events += seat.poll(t + 4)
        t += 8
    pin.drive_low()
    events += seat.poll(t)
    assert events == [] and led(pin_factory) == OFF
    events += seat.poll(t + DEBOUNCE_MS + 1)
    assert events == ["press"] and led(pin_factory) == (0, 0, 1)
    t += 1000
    for _ in range(6):  # and on the way up
        pin.drive_high()
        events += seat.poll(t)
        pin.drive_low()
        events += seat.poll(t + 4)
        t += 8
    assert events == ["press"] and led(pin_factory) == (0, 0, 1)
    pin.drive_high()
    for step in range(0, 100, 5):
        events += seat.poll(t + step)
    assert events == ["press", "release"] and led(pin_factory) == OFF


def test_edges_between_two_polls_are_timed_by_when_they_happened(pin_factory: MockFactory) -> None:
    """The app polls every ~20 ms: a press and release seen together still count if the
    press lasted past the debounce, and a blip does not."""
    clock = [0.0]
    with GpioSeat(PINS, pin_factory=pin_factory, clock=lambda: clock[0]) as seat:
        seat.set_clan("green")
        assert seat.poll(1000) == []
        pin = button(pin_factory)
        clock[0] = 0.010
        pin.drive_low()
        clock[0] = 0.060  # held 50 ms
        pin.drive_high()
        clock[0] = 0.100
        assert seat.poll(1100) == ["press", "release"] and led(pin_factory) == OFF
        clock[0] = 0.110
        pin.drive_low()
        clock[0] = 0.120  # a 10 ms blip
        pin.drive_high()
        clock[0] = 0.200
        assert seat.poll(1200) == [] and not seat.held


def test_edges_from_gpiozero_threads_are_picked_up_by_poll(
        pin_factory: MockFactory, seat: GpioSeat) -> None:
    seat.set_clan("red")
    seat.poll(0)
    worker = threading.Thread(target=button(pin_factory).drive_low)
    worker.start()
    worker.join()
    assert seat.poll(10) == [] and seat.poll(100) == ["press"]
    assert led(pin_factory) == (1, 0, 0)


# ------------------------------------------------------------ stuck, clearing, results


def test_a_stuck_button_turns_the_led_off_and_says_so_once(
        pin_factory: MockFactory, seat: GpioSeat) -> None:
    seat.set_clan("red")
    seat.poll(0)
    button(pin_factory).drive_low()
    seat.poll(100)
    assert seat.poll(200) == ["press"]
    assert seat.poll(100 + STUCK_MS - 10) == [] and led(pin_factory) == (1, 0, 0)
    assert seat.poll(100 + STUCK_MS + 10) == ["stuck"] and led(pin_factory) == OFF
    assert seat.poll(100 + STUCK_MS + 1000) == [] and led(pin_factory) == OFF
    assert seat.held
    seat.set_clan("blue")  # a new deal while still stuck: still off
    assert led(pin_factory) == OFF
    button(pin_factory).drive_high()
    t = 100 + STUCK_MS + 2000
    seat.poll(t)
    assert seat.poll(t + 100) == ["release"]
    button(pin_factory).drive_low()
    seat.poll(t + 200)
    assert seat.poll(t + 300) == ["press"] and led(pin_factory) == (0, 0, 1)  # works again


class GroundedPin(MockPWMPin):
    """A pin shorted to GND: it reads low whatever pull it is given."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self._change_state(False)


def test_a_button_down_from_the_start_is_no_press_but_gets_stuck(pin_factory: MockFactory) -> None:
    pin_factory.pin(PINS.button, pin_class=GroundedPin)
    with GpioSeat(PINS, pin_factory=pin_factory) as seat:
        seat.set_clan("yellow")
        assert seat.held and seat.poll(1000) == []
        assert led(pin_factory) == OFF  # down since before the clan: not a press for it
        assert seat.poll(1000 + STUCK_MS - 1) == [] and led(pin_factory) == OFF
        assert seat.poll(1000 + STUCK_MS) == ["stuck"] and led(pin_factory) == OFF


def test_clearing_the_clan_turns_the_led_off_at_once_even_while_held(
        pin_factory: MockFactory, seat: GpioSeat) -> None:
    seat.set_clan("green")
    seat.poll(0)
    button(pin_factory).drive_low()
    seat.poll(10)
    seat.poll(100)
    assert led(pin_factory) == (0, 1, 0)
    seat.set_clan(None)  # no poll needed
    assert led(pin_factory) == OFF
    assert seat.poll(200) == [] and led(pin_factory) == OFF and seat.held


def test_results_a_winner_glows_steadily_a_loser_only_while_holding(
        pin_factory: MockFactory, seat: GpioSeat) -> None:
    seat.poll(0)
    seat.show_result("yellow", won=True, place=1)
    assert led(pin_factory) == pytest.approx(CLAN_RGB["yellow"])
    assert seat.poll(100) == [] and led(pin_factory) == pytest.approx(CLAN_RGB["yellow"])
    seat.show_result("black", won=False, place=3)
    assert led(pin_factory) == OFF
    button(pin_factory).drive_low()
    seat.poll(200)
    seat.poll(300)
    assert led(pin_factory) == pytest.approx(CLAN_RGB["black"])
    seat.show_result("red", True)
    button(pin_factory).drive_high()
    seat.poll(400)
    seat.poll(500)
    assert led(pin_factory) == (1, 0, 0)
    seat.set_clan(None)  # a new game
    assert led(pin_factory) == OFF


def test_an_unknown_clan_is_refused(seat: GpioSeat) -> None:
    with pytest.raises(ValueError, match="unknown clan 'purple'"):
        seat.set_clan("purple")


# ------------------------------------------------------------ wiring variants


def test_common_anode_led_and_pull_down_button(pin_factory: MockFactory) -> None:
    with GpioSeat(PINS, pin_factory=pin_factory, led_active_high=False,
                  button_pull_up=False) as seat:
        assert led(pin_factory) == (1, 1, 1)  # common anode: high is off
        seat.set_clan("red")
        seat.poll(0)
        button(pin_factory).drive_high()  # to 3V3: pressed is high
        seat.poll(10)
        assert seat.poll(100) == ["press"]
        assert led(pin_factory) == (0, 1, 1)


def test_pins_without_pwm_show_full_colours(global_pin_factory: None) -> None:
    plain = MockFactory(pin_class=MockPin)  # what GPIOZERO_PIN_FACTORY=mock gives
    with GpioSeat(PINS, pin_factory=plain) as seat:
        t = 0
        for clan, rgb in (("yellow", (1, 1, 0)), ("black", (1, 1, 1)), ("blue", (0, 0, 1))):
            seat.set_clan(clan)
            seat.poll(t)
            button(plain).drive_low()
            seat.poll(t + 10)
            seat.poll(t + 100)
            assert led(plain) == rgb
            button(plain).drive_high()
            seat.poll(t + 200)
            seat.poll(t + 300)
            assert led(plain) == (0, 0, 0)
            t += 1000


def test_a_white_fifth_clan_lights_every_die_fully(pin_factory: MockFactory) -> None:
    """display.fifth_clan = "white" (R3): the fifth clan ("black" in the engine) is a full
    white, where a black one is a dim white; the other clans are unchanged."""
    assert clan_rgb("black", "white") == WHITE_RGB == (1, 1, 1)
    assert clan_rgb("black") == CLAN_RGB["black"] and clan_rgb("red", "white") == (1, 0, 0)
    with GpioSeat(PINS, pin_factory=pin_factory, fifth_clan="white") as seat:
        seat.poll(0)
        seat.set_clan("black")
        button(pin_factory).drive_low()
        assert seat.poll(10) == [] and seat.poll(100) == ["press"]
        assert led(pin_factory) == pytest.approx((1, 1, 1))
        button(pin_factory).drive_high()
        seat.poll(200)
        seat.poll(300)
        seat.set_clan("green")
        button(pin_factory).drive_low()
        seat.poll(400)
        seat.poll(500)
        assert led(pin_factory) == pytest.approx((0, 1, 0))
        button(pin_factory).drive_high()


# ------------------------------------------------------------ closing


def test_close_turns_off_frees_the_pins_and_can_be_repeated(pin_factory: MockFactory) -> None:
    seat = GpioSeat(PINS, pin_factory=pin_factory)
    seat.set_clan("red")
    seat.poll(0)
    button(pin_factory).drive_low()
    seat.poll(10)
    seat.poll(100)
    assert led(pin_factory) == (1, 0, 0) and seat.available
    seat.close()
    seat.close()
    assert led(pin_factory) == OFF and not seat.available
    assert seat.poll(200) == []
    seat.set_clan("blue")  # harmless after closing
    seat.show_result("blue", True)
    assert led(pin_factory) == OFF
    # The pins are free again.
    again = Button(PINS.button, pin_factory=pin_factory)
    rgb = RGBLED(PINS.red, PINS.green, PINS.blue, pin_factory=pin_factory)
    again.close()
    rgb.close()


def test_context_manager_closes(pin_factory: MockFactory) -> None:
    with GpioSeat(PINS, pin_factory=pin_factory) as seat:
        assert seat.available
    assert not seat.available
    Button(PINS.button, pin_factory=pin_factory).close()


def test_a_seat_whose_led_pins_are_taken_leaves_its_button_free(pin_factory: MockFactory) -> None:
    taken = LED(PINS.green, pin_factory=pin_factory)
    with pytest.raises(Exception, match="GPIO6 is already in use"):
        GpioSeat(PINS, pin_factory=pin_factory)
    taken.close()
    Button(PINS.button, pin_factory=pin_factory).close()


# ------------------------------------------------------------ opening seats from the map


def test_make_gpio_seats_opens_the_seats_asked_for(pin_factory: MockFactory) -> None:
    pinmap = load_pinmap(ROOT / "hardware" / "pinout.toml")
    seats = make_gpio_seats(pinmap, [1, 3], pin_factory=pin_factory)
    try:
        assert sorted(seats) == [1, 3]
        seats[3].set_clan("green")
        seats[3].poll(0)
        seats[1].poll(0)
        button(pin_factory, pinmap.seats[3]).drive_low()
        assert seats[3].poll(10) == [] and seats[3].poll(100) == ["press"]
        assert seats[1].poll(100) == []
        assert led(pin_factory, pinmap.seats[3]) == (0, 1, 0)
        assert led(pin_factory, pinmap.seats[1]) == OFF
        button(pin_factory, pinmap.seats[3]).drive_high()  # gpiozero's hold thread closes slowly
    finally:
        for dev in seats.values():
            dev.close()


def test_make_gpio_seats_refuses_a_seat_the_map_lacks(pin_factory: MockFactory) -> None:
    pinmap = PinMap(seats={1: PINS}, source="hardware/pinout.toml")
    with pytest.raises(PinMapError) as info:
        make_gpio_seats(pinmap, [1, 2], pin_factory=pin_factory)
    assert str(info.value) == "hardware/pinout.toml: no [seat.2] pins for GPIO seat 2"
    Button(PINS.button, pin_factory=pin_factory).close()  # nothing was opened


def test_make_gpio_seats_closes_what_it_opened_when_a_pin_is_taken(
        pin_factory: MockFactory) -> None:
    pinmap = load_pinmap(ROOT / "hardware" / "pinout.toml")
    taken = LED(pinmap.seats[2].red, pin_factory=pin_factory)
    with pytest.raises(GpioUnavailable) as info:
        make_gpio_seats(pinmap, [1, 2], pin_factory=pin_factory)
    assert str(info.value) == (
        "GPIO seat 2 cannot open its pins (button GPIO27, red GPIO12, green GPIO16, "
        "blue GPIO20): pin GPIO12 is already in use; GPIO seats use the on-screen peek")
    taken.close()
    again = make_gpio_seats(pinmap, [1, 2], pin_factory=pin_factory)  # seat 1 was closed
    for dev in again.values():
        dev.close()


def test_off_a_pi_gpio_is_unavailable_with_a_clear_message(
        global_pin_factory: None, monkeypatch: pytest.MonkeyPatch) -> None:
    pinmap = PinMap(seats={1: PINS}, source="pinout.toml")

    def no_factory() -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    with pytest.raises(GpioUnavailable) as info:
        make_gpio_seats(pinmap, [1])
    assert str(info.value) == (
        "GPIO is not available on this machine (not a Raspberry Pi, or no GPIO library: on a "
        f"Pi, {lgpio_install_hint()}); GPIO seats use the on-screen peek")
    monkeypatch.undo()
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nosuchfactory")
    with pytest.raises(GpioUnavailable) as info:
        make_gpio_seats(pinmap, [1])
    assert str(info.value) == (
        "GPIO is not available on this machine (GPIOZERO_PIN_FACTORY=nosuchfactory: Unable to "
        "find pin factory 'nosuchfactory'); GPIO seats use the on-screen peek")
    assert Device.pin_factory is None


def test_with_the_mock_factory_from_the_environment_seats_open(
        global_pin_factory: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """GPIOZERO_PIN_FACTORY=mock: how to try GPIO seats off a Pi."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    seats = make_gpio_seats(PinMap(seats={1: PINS}), [1])
    try:
        assert isinstance(Device.pin_factory, MockFactory)
        seats[1].set_clan("red")
        seats[1].poll(0)
        Device.pin_factory.pin(PINS.button).drive_low()
        assert seats[1].poll(10) == [] and seats[1].poll(100) == ["press"]
    finally:
        seats[1].close()
        Device.pin_factory.close()


# ------------------------------------------------------------ a press must begin after the deal


@pytest.mark.parametrize("why", ["held by a hand", "shorted to GND"])
def test_a_button_held_when_the_clan_is_set_lights_nothing_until_let_go(
        pin_factory: MockFactory, why: str) -> None:
    """A child leaning on the button during the deal, a shorted button or a wrong
    button_pull_up: the clan is set while the button is down. Nothing lights (R22: nobody
    asked to see it), neither before nor after the debounce, until the button is let go and
    pressed again; a shorted button still says "stuck" after STUCK_MS."""
    if why == "shorted to GND":
        pin_factory.pin(PINS.button, pin_class=GroundedPin)
    with GpioSeat(PINS, pin_factory=pin_factory) as seat:
        seat.poll(0)
        if why == "held by a hand":
            button(pin_factory).drive_low()
            assert seat.poll(10) == [] and seat.poll(100) == ["press"]
        seat.set_clan("red")
        assert led(pin_factory) == OFF and seat.held
        t = 200
        events: list[str] = []
        while t < 100 + STUCK_MS + 500:
            events += seat.poll(t)
            assert led(pin_factory) == OFF, f"lit at {t} ms with no press since the deal"
            t += 20
        assert events == ["stuck"]
        if why == "shorted to GND":
            return  # it never comes up: dark for good, and the screen says why
        button(pin_factory).drive_high()
        assert seat.poll(t) == [] and seat.poll(t + DEBOUNCE_MS + 5) == ["release"]
        assert led(pin_factory) == OFF
        button(pin_factory).drive_low()  # a press that began after the deal: it lights
        assert seat.poll(t + 200) == [] and seat.poll(t + 300) == ["press"]
        assert led(pin_factory) == (1, 0, 0)
        button(pin_factory).drive_high()


def test_a_new_clan_while_held_waits_for_a_new_press(pin_factory: MockFactory,
                                                     seat: GpioSeat) -> None:
    """Held through a new deal (or a rematch): the old press shows nothing of the new clan."""
    seat.set_clan("green")
    seat.poll(0)
    button(pin_factory).drive_low()
    seat.poll(10)
    assert seat.poll(100) == ["press"] and led(pin_factory) == (0, 1, 0)
    seat.set_clan("blue")
    assert led(pin_factory) == OFF
    assert seat.poll(200) == [] and led(pin_factory) == OFF
    button(pin_factory).drive_high()
    seat.poll(300)
    assert seat.poll(400) == ["release"] and led(pin_factory) == OFF
    button(pin_factory).drive_low()
    seat.poll(500)
    assert seat.poll(600) == ["press"] and led(pin_factory) == (0, 0, 1)
    button(pin_factory).drive_high()


def test_a_bounce_at_the_deal_is_not_a_press_from_before_it(pin_factory: MockFactory,
                                                             seat: GpioSeat) -> None:
    """The contacts chatter just as the clan is set, then the button is up: the next real
    press lights (the chatter did not leave the seat waiting for a release that never
    comes)."""
    seat.poll(0)
    pin = button(pin_factory)
    pin.drive_low()
    seat.poll(100)
    seat.set_clan("yellow")  # a 5 ms blip, down at this moment
    pin.drive_high()
    assert seat.poll(105) == [] and seat.poll(105 + DEBOUNCE_MS + 5) == []
    pin.drive_low()
    seat.poll(300)
    assert seat.poll(400) == ["press"] and led(pin_factory) == pytest.approx(CLAN_RGB["yellow"])
    pin.drive_high()
