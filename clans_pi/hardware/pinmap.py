"""The pin map: which BCM GPIO each seat's button and RGB LED use (hardware/pinout.toml).

    led_active_high = true      # common-cathode LED
    button_pull_up = true       # button to GND
    [seat.1]
    button = 17
    red = 5
    green = 6
    blue = 13

Every problem is a :class:`PinMapError` of one line naming the file and what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules.constants import MAX_PLAYERS
from ..rules.errors import ClansError
from ..saving.files import FileError, read_toml

#: The pin map shipped with the code, and the system-wide one that takes precedence.
DEFAULT_PATH = Path(__file__).resolve().parents[2] / "hardware" / "pinout.toml"
SYSTEM_PATH = Path("/etc/clans-pi/pinout.toml")

#: A seat's pins, in the order they are checked and reported.
ROLES = ("button", "red", "green", "blue")
OPTIONS = {"led_active_high": True, "button_pull_up": True}
MAX_GPIO = 27

#: Pins a seat may not use, and why (said in the error).
RESERVED = {
    0: "reserved by the Pi (HAT ID EEPROM, ID_SD)",
    1: "reserved by the Pi (HAT ID EEPROM, ID_SC)",
    2: "used by I2C (SDA)",
    3: "used by I2C (SCL)",
    14: "used by the UART (TXD)",
    15: "used by the UART (RXD)",
}


class PinMapError(ClansError):
    """A pin map that cannot be used: names the file and the problem in one line."""


@dataclass(frozen=True)
class SeatPins:
    """One seat's BCM GPIO numbers."""

    button: int
    red: int
    green: int
    blue: int


@dataclass(frozen=True)
class PinMap:
    """Seats (1-based, as in the config) to their pins, and how the parts are wired."""

    seats: dict[int, SeatPins] = field(default_factory=dict)
    led_active_high: bool = True
    button_pull_up: bool = True
    source: str = "pinout.toml"

    def uses(self) -> dict[int, str]:
        """Every pin in use to what uses it ("seat 1 button")."""
        return {
            getattr(pins, role): f"seat {seat} {role}"
            for seat, pins in sorted(self.seats.items())
            for role in ROLES
        }


def default_path() -> Path:
    """/etc/clans-pi/pinout.toml if it exists, else the repository's hardware/pinout.toml."""
    return SYSTEM_PATH if SYSTEM_PATH.is_file() else DEFAULT_PATH


def shown(path: Path) -> str:
    """``path`` as people should read it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def load_pinmap(path: str | Path | None = None) -> PinMap:
    """Read and check a pin map; ``path`` None means :func:`default_path`."""
    if path is None:
        path = default_path()
        if not path.is_file():
            # A pip install without the installer: the repository's file is not there.
            raise PinMapError(
                f"no pin map: neither {SYSTEM_PATH} nor {DEFAULT_PATH} exists; copy "
                "hardware/pinout.toml from Clans Pi's source to /etc/clans-pi/, or set "
                "pinout = \"/path/to/pinout.toml\" in the settings")
    path = Path(path)
    name = shown(path)
    try:
        data = read_toml(path)
    except FileError as exc:  # missing, unreadable, too big, not TOML: one line
        raise PinMapError(f"{name}: {exc.problem}") from None
    return parse_pinmap(data, name)


def parse_pinmap(data: dict[str, Any], name: str) -> PinMap:
    """Check an already parsed pin map; ``name`` is the file named in errors."""
    expected = ", ".join(["seat", *OPTIONS])
    for key in data:
        if key != "seat" and key not in OPTIONS:
            raise PinMapError(f"{name}: unknown key '{key}' (expected {expected})")
    options: dict[str, bool] = {}
    for key, default in OPTIONS.items():
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise PinMapError(f"{name}: {key} must be true or false, not {value!r}")
        options[key] = value
    tables = data.get("seat")
    if not isinstance(tables, dict) or not tables:
        raise PinMapError(f"{name}: no seats: add tables like [seat.1] with button, red, "
                          "green and blue")
    seats: dict[int, SeatPins] = {}
    used: dict[int, str] = {}
    for key in sorted(tables, key=_seat_order):
        if not (_is_number(key) and 1 <= int(key) <= MAX_PLAYERS):
            raise PinMapError(f"{name}: [seat.{key}]: seats are numbered 1 to {MAX_PLAYERS}")
        seat = int(key)
        table = tables[key]
        where = f"{name}: [seat.{key}]"
        if not isinstance(table, dict):
            raise PinMapError(f"{where} must be a table with button, red, green and blue")
        for role in table:
            if role not in ROLES:
                raise PinMapError(f"{where}: unknown key '{role}' (expected {', '.join(ROLES)})")
        pins: dict[str, int] = {}
        for role in ROLES:
            if role not in table:
                raise PinMapError(f"{where}: missing pin '{role}'")
            pin = table[role]
            if not isinstance(pin, int) or isinstance(pin, bool):
                raise PinMapError(f"{where}: {role} = {pin!r} is not a whole number "
                                  "(a BCM GPIO number)")
            if not 0 <= pin <= MAX_GPIO:
                raise PinMapError(f"{where}: {role} = {pin} is out of range "
                                  f"(BCM GPIO numbers run 0 to {MAX_GPIO})")
            if pin in RESERVED:
                raise PinMapError(f"{where}: {role} = {pin}: GPIO{pin} is {RESERVED[pin]}; "
                                  "pick another pin")
            use = f"seat {seat} {role}"
            if pin in used:
                raise PinMapError(f"{name}: GPIO{pin} is used twice: {used[pin]} and {use}")
            used[pin] = use
            pins[role] = pin
        seats[seat] = SeatPins(**pins)
    return PinMap(seats=seats, source=name, **options)


def _seat_order(key: str) -> tuple[int, str]:
    """Seats in numeric order (non-numbers last, to be refused)."""
    return (int(key), "") if _is_number(key) else (MAX_PLAYERS + 1, key)


def _is_number(key: str) -> bool:
    return key.isascii() and key.isdigit()
