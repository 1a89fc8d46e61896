"""A seat's private button and RGB LED on the Pi's GPIO (gpiozero).

Holding the button shows the seat's own clan on its LED; letting go turns it off. Only a
press that began after the clan was set shows it: a button already down when the clan comes
(a child leaning on it during the deal, a short, a wrong ``button_pull_up``) must be let go
first, so nothing lights that nobody asked to see (R22).

Threads: gpiozero calls the button callbacks from its own threads. They only append
``(time, level)`` to a list under a lock; everything else (debouncing, the LED, events)
happens in :meth:`GpioSeat.poll`, which the app calls from its main loop, so the LED is only
ever written from the main thread.

Debouncing is ours, not gpiozero's ``bounce_time`` (which its mock pins ignore): a level
counts once it has held for DEBOUNCE_MS. Edge times are taken with ``time.monotonic`` in the
callback and moved onto the app's clock in ``poll``, so a press and release that both happen
between two polls still give "press" then "release".
"""

from __future__ import annotations

import os
import sys
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

from ..rules.errors import ClansError
from ..settings.options import FIFTH_CLANS, shown_clan
from .pinmap import ROLES, PinMap, PinMapError, SeatPins

DEBOUNCE_MS = 30
STUCK_MS = 5000

RGB = tuple[float, float, float]
OFF: RGB = (0.0, 0.0, 0.0)

#: What each clan looks like on a common RGB LED driven through hardware/README.md's resistors.
#: Yellow: the green die of a common RGB LED looks far brighter than the red one at the same
#: current, so half green reads yellow where (1, 1, 0) reads lime. Black: an LED cannot be
#: black, so black is a dim white, clearly unlike the other four.
CLAN_RGB: dict[str, RGB] = {
    "red": (1.0, 0.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    "green": (0.0, 1.0, 0.0),
    "yellow": (1.0, 0.45, 0.0),
    "black": (0.15, 0.15, 0.15),
}
#: The fifth clan when the settings show it white (display.fifth_clan): every die fully on.
WHITE_RGB: RGB = (1.0, 1.0, 1.0)


def clan_rgb(clan: str, fifth_clan: str = "black") -> RGB:
    """What ``clan`` lights, with the fifth clan shown as ``fifth_clan`` (black or white)."""
    return WHITE_RGB if shown_clan(clan, fifth_clan) == "white" else CLAN_RGB[clan]


class GpioUnavailable(ClansError):
    """This machine has no usable GPIO (not a Pi, no pin library, or the pins are taken)."""


class GpioSeat:
    """One seat's momentary button and RGB LED.

    ``poll(now_ms)`` returns the debounced events since the last call: "press", "release",
    and "stuck" (once, when the button has been down STUCK_MS; the LED stays off until the
    button is let go). While the button is held and a clan is set, the LED shows the clan,
    if the press began after the clan was set: one that began before (or the button down
    since start-up) gives no "press" and lights nothing; after it is let go (no "release"
    either) the next press counts.

    At the end, :meth:`show_result` lights a winner's LED steadily in their clan colour; a
    loser's stays off, but holding the button still shows their clan.

    Without PWM (gpiozero's native pins, or mock pins that are not MockPWMPin) each colour
    is fully on or off: yellow shows as red + green, black as white.
    """

    def __init__(self, pins: SeatPins, *, led_active_high: bool = True,
                 button_pull_up: bool = True, pin_factory: Any = None,
                 clock: Callable[[], float] = time.monotonic,
                 fifth_clan: str = "black") -> None:
        from gpiozero import RGBLED, Button
        from gpiozero.exc import PinPWMUnsupported

        self.pins = pins
        self._clock = clock
        assert fifth_clan in FIFTH_CLANS, f"fifth clan {fifth_clan!r}"
        self._fifth = fifth_clan  # the fifth clan lights dim white (black) or full white
        self._lock = threading.Lock()
        self._edges: list[tuple[float, bool]] = []
        self._closed = False
        self._led: Any = None
        self._button: Any = Button(pins.button, pull_up=button_pull_up,
                                   pin_factory=pin_factory)
        self._pwm = True
        try:
            try:
                self._led = RGBLED(pins.red, pins.green, pins.blue,
                                   active_high=led_active_high, pwm=True,
                                   pin_factory=pin_factory)
            except PinPWMUnsupported:
                self._pwm = False
                self._led = RGBLED(pins.red, pins.green, pins.blue,
                                   active_high=led_active_high, pwm=False,
                                   pin_factory=pin_factory)
        except BaseException:
            self._button.close()
            raise
        self._shown: RGB = OFF
        self._clan: str | None = None
        self._won = False
        self._button.when_pressed = self._on_press
        self._button.when_released = self._on_release
        # Read after hooking the callbacks, so no edge falls between the two.
        self._raw = self._down = bool(self._button.is_pressed)
        self._raw_since: float | None = None  # app-clock ms; None until the first poll
        self._down_since: float | None = None
        self._stuck = False
        # The button has been up (settled) since the clan was last set: the next press
        # counts. False while a press that began before it (or at start-up) is still on.
        self._armed = not self._raw
        self._counted = False  # the debounced press now down may light the clan
        self._reported = False  # ... and was reported as "press" (its release will be too)

    # ------------------------------------------------------------ gpiozero's threads

    def _on_press(self) -> None:
        with self._lock:
            self._edges.append((self._clock(), True))

    def _on_release(self) -> None:
        with self._lock:
            self._edges.append((self._clock(), False))

    # ------------------------------------------------------------ the main loop

    @property
    def held(self) -> bool:
        """The debounced button is down (as of the last poll)."""
        return self._down

    @property
    def available(self) -> bool:
        """True until :meth:`close`."""
        return not self._closed

    def poll(self, now_ms: float) -> list[str]:
        """Take the edges gpiozero saw since the last call, debounce them against the app's
        clock ``now_ms`` and update the LED; return "press", "release" and "stuck" events."""
        if self._closed:
            return []
        with self._lock:
            edges, self._edges = self._edges, []
            mono = self._clock()
        if self._raw_since is None:
            self._raw_since = now_ms
            self._down_since = now_ms if self._down else None
        events: list[str] = []
        for stamp, level in edges:
            at = min(now_ms, now_ms - (mono - stamp) * 1000.0)
            self._advance(at, events)
            if level != self._raw:
                self._raw, self._raw_since = level, max(at, self._raw_since)
        self._advance(now_ms, events)
        self._update_led()
        return events

    def _advance(self, now: float, events: list[str]) -> None:
        """Settle the debounced state up to time ``now``."""
        assert self._raw_since is not None
        if self._down and not self._stuck and self._down_since is not None:
            end = now if self._raw else self._raw_since
            if end - self._down_since >= STUCK_MS:
                self._stuck = True
                events.append("stuck")
        if self._raw != self._down and now - self._raw_since >= DEBOUNCE_MS:
            self._down = self._raw
            if self._down:
                self._down_since = self._raw_since
                self._counted = self._reported = self._armed
                if self._reported:
                    events.append("press")
            else:
                self._down_since = None
                self._stuck = False
                if self._reported:
                    events.append("release")
                self._counted = self._reported = False
        if not self._raw and not self._down and now - self._raw_since >= DEBOUNCE_MS:
            self._armed = True  # up and settled: the next press began after the clan

    # ------------------------------------------------------------ what the app shows

    def set_clan(self, clan: str | None) -> None:
        """The clan to show while the button is held; None clears it and the LED goes off
        at once. Also ends a result shown by :meth:`show_result`."""
        if clan is not None and clan not in CLAN_RGB:
            raise ValueError(f"unknown clan {clan!r}")
        self._clan = clan
        self._won = False
        self._disarm()
        self._update_led()

    def _disarm(self) -> None:
        """A press already under way (or a level not yet polled) shows nothing of a clan set
        now: the button must be seen up first."""
        if self._closed:
            return
        try:
            down_now = bool(self._button.is_pressed)
        except Exception:  # a pin that cannot be read now: assume the worst
            down_now = True
        if self._down or self._raw or down_now:
            self._armed = self._counted = False

    def show_result(self, clan: str, won: bool, place: int = 1) -> None:
        """The game is over: a winner's LED shows their clan steadily; a loser's is off
        (holding the button still shows it). ``place`` is not shown by a single LED."""
        self.set_clan(clan)
        self._won = won
        self._update_led()

    def light(self, clan: str | None) -> None:
        """Show ``clan``'s colour now, button or not (the makers' self-test); None: off."""
        self.set_clan(clan)
        self._won = clan is not None
        self._update_led()

    @property
    def shown(self) -> RGB:
        """What the LED shows now (after PWM-less rounding), as (red, green, blue) 0..1."""
        return self._shown

    def _wanted(self) -> RGB:
        if self._closed or self._clan is None:
            return OFF
        if self._won or (self._down and self._counted and not self._stuck):
            return clan_rgb(self._clan, self._fifth)
        return OFF

    def _update_led(self) -> None:
        if self._closed:
            return
        rgb = self._wanted()
        if not self._pwm:
            rgb = (1.0, 1.0, 1.0) if rgb == CLAN_RGB["black"] else _on_off(rgb)
        if rgb != self._shown:
            self._led.value = rgb
            self._shown = rgb

    # ------------------------------------------------------------ closing

    def close(self) -> None:
        """Turn the LED off and free the pins; calling it again does nothing."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._led is not None:
                self._led.value = OFF
        finally:
            self._button.when_pressed = None
            self._button.when_released = None
            self._button.close()
            if self._led is not None:
                self._led.close()

    def __enter__(self) -> GpioSeat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _on_off(rgb: RGB) -> RGB:
    r, g, b = (1.0 if c > 0 else 0.0 for c in rgb)
    return (r, g, b)


def default_pin_factory() -> Any:
    """gpiozero's default pin factory (lgpio on a Pi 5), or :class:`GpioUnavailable`."""
    from gpiozero import Device

    if Device.pin_factory is not None:
        return Device.pin_factory
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its "falling back from lgpio" warnings
        try:
            Device.ensure_pin_factory()
        except Exception as exc:
            raise GpioUnavailable(
                f"GPIO is not available on this machine ({_why(exc)}); "
                "GPIO seats use the on-screen peek") from None
    return Device.pin_factory


def _why(exc: Exception) -> str:
    name = os.environ.get("GPIOZERO_PIN_FACTORY")
    if name:
        return f"GPIOZERO_PIN_FACTORY={name}: {exc}"
    return f"not a Raspberry Pi, or no GPIO library: on a Pi, {lgpio_install_hint()}"


def lgpio_install_hint() -> str:
    """The command that installs gpiozero's pin library for the Python running this: the
    pip of its venv by absolute path (/opt/clans-pi/.venv/bin/pip when installed, a
    checkout's .venv otherwise; with sudo when the venv is not the user's to write), or
    Raspberry Pi OS's package outside a venv."""
    if sys.prefix == sys.base_prefix:
        return "sudo apt install python3-lgpio"
    pip = os.path.join(sys.prefix, "bin", "pip")
    sudo = "" if os.access(sys.prefix, os.W_OK) else "sudo "
    return f"{sudo}{pip} install lgpio"


def _short(exc: Exception) -> str:
    """gpiozero's message without the device's repr ("pin GPIO17 is already in use")."""
    return str(exc).split(" by <", 1)[0] or type(exc).__name__


def make_gpio_seats(pinmap: PinMap, seats: list[int], pin_factory: Any = None, *,
                    fifth_clan: str = "black") -> dict[int, GpioSeat]:
    """Open the GPIO seats ``seats`` (1-based, as in the config) with their pins from
    ``pinmap``, showing the fifth clan as ``fifth_clan``; ``pin_factory`` None means
    gpiozero's default. Raises :class:`PinMapError`
    for a seat the map lacks and :class:`GpioUnavailable` when the pins cannot be opened;
    nothing stays open after an error."""
    for seat in seats:
        if seat not in pinmap.seats:
            raise PinMapError(f"{pinmap.source}: no [seat.{seat}] pins for GPIO seat {seat}")
    factory = default_pin_factory() if pin_factory is None else pin_factory
    opened: dict[int, GpioSeat] = {}
    try:
        for seat in seats:
            pins = pinmap.seats[seat]
            try:
                opened[seat] = GpioSeat(pins, led_active_high=pinmap.led_active_high,
                                        button_pull_up=pinmap.button_pull_up,
                                        pin_factory=factory, fifth_clan=fifth_clan)
            except Exception as exc:
                wanted = ", ".join(f"{role} GPIO{getattr(pins, role)}" for role in ROLES)
                raise GpioUnavailable(
                    f"GPIO seat {seat} cannot open its pins ({wanted}): {_short(exc)}; "
                    "GPIO seats use the on-screen peek") from None
    except BaseException:
        for dev in opened.values():
            dev.close()
        raise
    return opened
