"""Fake MicroPython modules for running the handheld firmware under CPython.

install() puts fake `machine`, `micropython` and `neopixel` modules (and, with
display=True, a fake micropython-lib `ssd1306` driver) into sys.modules and returns
the Board that records what the firmware did; uninstall() puts back whatever was there.
Everything here checks its arguments the way the rp2 port does where a firmware bug
would show (duty cycles out of range, a watchdog timeout the RP2040 cannot do).
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DEFAULT_UID = bytes.fromhex("e6614104032b422a")
WDT_MAX_MS = 8388  # the RP2040 watchdog's longest timeout


class Board:
    """The state of the fake Pico: pin levels, PWMs, watchdogs, the pixel, the display."""

    def __init__(self) -> None:
        self.levels: dict[Any, int] = {}  # pin id -> level
        self.pins: dict[Any, Pin] = {}  # pin id -> the last Pin made for it
        self.pwms: dict[Any, PWM] = {}  # pin id -> PWM
        self.wdts: list[WDT] = []
        self.resets = 0
        self.uid = DEFAULT_UID
        self.has_led = True  # Pin("LED") exists (a Pico or Pico W)
        self.i2c_devices: list[int] = []  # addresses answering a scan
        self.i2cs: list[I2C] = []
        self.pixels: list[NeoPixel] = []
        self.displays: list[SSD1306_I2C] = []
        self.kbd_intr: list[int] = []

    def set_level(self, pin_id: Any, level: int) -> None:
        self.levels[pin_id] = 1 if level else 0

    def level(self, pin_id: Any) -> int:
        return self.levels[pin_id]

    def duty(self, pin_id: Any) -> int:
        return self.pwms[pin_id].duty_u16()


BOARD = Board()


# --- machine ------------------------------------------------------------------------------


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id: Any, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
        if id == "LED" and not BOARD.has_led:
            raise ValueError("unknown named pin 'LED'")
        if not (isinstance(id, int) and 0 <= id <= 29) and id != "LED":
            raise ValueError("invalid pin")
        self.id, self.mode, self.pull = id, mode, pull
        if id not in BOARD.levels:  # a level the test set before (a held button) stays
            BOARD.levels[id] = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            BOARD.levels[id] = 1 if value else 0
        BOARD.pins[id] = self

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return BOARD.levels[self.id]
        BOARD.levels[self.id] = 1 if v else 0
        return None

    __call__ = value

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)


class PWM:
    def __init__(self, pin: Pin, freq: int | None = None, duty_u16: int | None = None) -> None:
        if not isinstance(pin, Pin):
            raise TypeError("PWM needs a Pin")
        self.pin = pin
        self._freq = 0
        self._duty = 0
        self.deinited = False
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)
        BOARD.pwms[pin.id] = self

    def freq(self, f: int | None = None) -> int | None:
        if f is None:
            return self._freq
        if not 8 <= f <= 62_500_000:
            raise ValueError("freq out of range")
        self._freq = f
        return None

    def duty_u16(self, d: int | None = None) -> int | None:
        if d is None:
            return self._duty
        if not isinstance(d, int) or isinstance(d, bool):
            raise TypeError("duty must be an int")
        if not 0 <= d <= 65535:
            raise ValueError("duty out of range")
        self._duty = d
        return None

    def deinit(self) -> None:
        self.deinited = True


class WDT:
    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        if not 1 <= timeout <= WDT_MAX_MS:
            raise ValueError("timeout out of range")
        self.timeout = timeout
        self.feeds = 0
        BOARD.wdts.append(self)

    def feed(self) -> None:
        self.feeds += 1


class I2C:
    def __init__(
        self, id: int, scl: Pin | None = None, sda: Pin | None = None, freq: int = 400_000
    ):
        self.id, self.scl, self.sda, self.freq = id, scl, sda, freq
        self.writes: list[tuple[int, bytes]] = []
        BOARD.i2cs.append(self)

    def scan(self) -> list[int]:
        return list(BOARD.i2c_devices)

    def writeto(self, addr: int, buf: bytes, stop: bool = True) -> int:
        if addr not in BOARD.i2c_devices:
            raise OSError(5, "EIO")
        self.writes.append((addr, bytes(buf)))
        return 1

    def writevto(self, addr: int, bufs: list[bytes], stop: bool = True) -> int:
        return self.writeto(addr, b"".join(bytes(b) for b in bufs), stop)


def unique_id() -> bytes:
    return BOARD.uid


def reset() -> None:
    BOARD.resets += 1


# --- micropython, neopixel, ssd1306 ----------------------------------------------------------


def const(x: Any) -> Any:
    return x


def kbd_intr(c: int) -> None:
    BOARD.kbd_intr.append(c)


class NeoPixel:
    def __init__(self, pin: Pin, n: int, bpp: int = 3, timing: int = 1) -> None:
        self.pin, self.n = pin, n
        self.buf = [(0, 0, 0)] * n
        self.written: list[list[tuple[int, int, int]]] = []
        BOARD.pixels.append(self)

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, i: int, rgb: tuple[int, int, int]) -> None:
        if len(rgb) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in rgb):
            raise ValueError("a pixel is three ints 0..255")
        self.buf[i] = tuple(rgb)  # type: ignore[assignment]

    def __getitem__(self, i: int) -> tuple[int, int, int]:
        return self.buf[i]

    def write(self) -> None:
        self.written.append(list(self.buf))


class SSD1306_I2C:
    """Records drawing calls: `ops` since the last fill(), `frames` at each show()."""

    def __init__(self, width: int, height: int, i2c: I2C, addr: int = 0x3C, external_vcc=False):
        if addr not in i2c.scan():
            raise OSError(19, "ENODEV")
        self.width, self.height, self.i2c, self.addr = width, height, i2c, addr
        self.ops: list[tuple[str, tuple]] = []
        self.frames: list[list[tuple[str, tuple]]] = []
        BOARD.displays.append(self)

    def _op(self, name: str, args: tuple) -> None:
        *coords, colour = args
        if colour not in (0, 1):
            raise ValueError("colour is 0 or 1")
        self.ops.append((name, tuple(coords)))

    def fill(self, c: int) -> None:
        self.ops = [] if c == 0 else [("fill", ())]

    def text(self, s: str, x: int, y: int, c: int = 1) -> None:
        if not isinstance(s, str):
            raise TypeError("text needs a str")
        self._op("text", (s, x, y, c))

    def pixel(self, x: int, y: int, c: int) -> None:
        self._op("pixel", (x, y, c))

    def hline(self, x: int, y: int, w: int, c: int) -> None:
        self._op("hline", (x, y, w, c))

    def vline(self, x: int, y: int, h: int, c: int) -> None:
        self._op("vline", (x, y, h, c))

    def line(self, x1: int, y1: int, x2: int, y2: int, c: int) -> None:
        self._op("line", (x1, y1, x2, y2, c))

    def rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        self._op("rect", (x, y, w, h, c))

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        self._op("fill_rect", (x, y, w, h, c))

    def show(self) -> None:
        self.i2c.writeto(self.addr, b"\x40")  # raises OSError when the display is gone
        self.frames.append(list(self.ops))

    def poweroff(self) -> None:
        pass

    def contrast(self, c: int) -> None:
        pass


# --- install / uninstall --------------------------------------------------------------------

_NAMES = ("machine", "micropython", "neopixel", "ssd1306")
_saved: dict[str, types.ModuleType | None] = {}


def _module(name: str, **attrs: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


def install(display: bool = False) -> Board:
    """Fresh fake modules in sys.modules (ssd1306 only with display=True); the new Board."""
    global BOARD
    if not _saved:
        for name in _NAMES:
            _saved[name] = sys.modules.get(name)
    BOARD = Board()
    machine = _module(
        "machine",
        Pin=Pin,
        PWM=PWM,
        WDT=WDT,
        I2C=I2C,
        SoftI2C=I2C,
        unique_id=unique_id,
        reset=reset,
        freq=lambda *a: 125_000_000,
    )
    sys.modules["machine"] = machine
    sys.modules["micropython"] = _module(
        "micropython", const=const, kbd_intr=kbd_intr, alloc_emergency_exception_buf=lambda n: None
    )
    sys.modules["neopixel"] = _module("neopixel", NeoPixel=NeoPixel)
    if display:
        sys.modules["ssd1306"] = _module("ssd1306", SSD1306_I2C=SSD1306_I2C)
    else:
        sys.modules["ssd1306"] = None  # type: ignore[assignment]  # import ssd1306 fails
    return BOARD


def uninstall() -> None:
    """Put back the modules that were there before install() (usually none)."""
    for name, module in _saved.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module
    _saved.clear()


@contextmanager
def firmware(syspath_prepend: Callable[[Path], None], modules: Sequence[str], *,
             display: bool = False) -> Iterator[types.SimpleNamespace]:
    """The firmware's ``modules`` (firmware/*.py), freshly imported as on the Pico: top-level
    modules importing each other, ``import protocol`` being the host's
    clans_pi.hardware.protocol (the same file), on a fresh fake board. ``syspath_prepend``
    is pytest's ``monkeypatch.syspath_prepend`` (pytest puts sys.path back); sys.modules
    and the fake modules are put back here. Yields the board and the modules by name."""
    from clans_pi.hardware import protocol

    board = install(display=display)
    saved = {name: sys.modules.pop(name, None) for name in (*modules, "protocol")}
    syspath_prepend(Path(__file__).resolve().parent.parent / "firmware")
    sys.modules["protocol"] = protocol
    try:
        mods = {name: importlib.import_module(name) for name in modules}
        yield types.SimpleNamespace(board=board, **mods)
    finally:
        for name, module in saved.items():
            sys.modules.pop(name, None)
            if module is not None:
                sys.modules[name] = module
        uninstall()
