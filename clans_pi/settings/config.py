"""The settings file (TOML): seats, pins, display, language, sound, where saves live.

A bad file never stops the game: every problem becomes one line naming the file, the key
and what is wrong, and that setting keeps its default. clans_pi/settings/config.example.toml
documents every key with its default (a test checks it against :func:`load_config`).

    language = "en"
    sound = true
    [display]
    rotate = 0
    dim_after_minutes = 0
    clan_marks = true
    fifth_clan = "black"
    [seats]
    1 = "gpio"        # the seat's button and LED on the Pi (hardware/pinout.toml)
    2 = "handheld"    # a Pico handheld on USB, paired from the start screen
    3 = "screen"      # the press-and-hold peek on the touchscreen (the default)
    [phones]
    listen = "0.0.0.0:8080"
    wifi_name = "Clans Pi"        # the Wi-Fi the phones join (the start screen shows it)
    wifi_password = "..."

The installer's --hotspot writes the Pi's own Wi-Fi's name and password into a second file
beside the settings, hotspot.toml (its [phones] wifi_name and wifi_password), so that it
never touches a maker's config.toml; a wifi_name in config.toml wins over it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import i18n
from ..rules.constants import MAX_PLAYERS
from ..saving.files import FileError, FileMissing, read_toml, user_state_dir
from .options import DEFAULT_SIZE, FIFTH_CLANS, ROTATIONS, size_problem
from .wifi import Hotspot, name_problem, password_problem

SEAT_KINDS = ("screen", "gpio", "handheld", "phone")
#: The languages the rulebooks came in, all translated (clans_pi/locale).
LANGUAGES = tuple(i18n.LANGUAGES)
TOP_LEVEL = ("language", "sound", "volume", "pinout", "state_dir", "display", "computer",
             "seats", "phones")
COMPUTER_KEYS = ("think_seconds", "hints", "workers")
#: The most search processes ``[computer] workers`` may ask for.
MAX_WORKERS = 16
DISPLAY_KEYS = ("size", "fullscreen", "rotate", "dim_after_minutes", "dim_percent",
                "backlight", "clan_marks", "fifth_clan")
DEFAULT_PATHS = (Path("/etc/clans-pi/config.toml"),)
#: The card's own settings file, on the boot partition that Windows and macOS show after the
#: card is flashed (Raspberry Pi OS mounts it at /boot/firmware; before Bookworm at /boot).
#: A maker may edit it before the first boot; its settings win over DEFAULT_PATHS' key by
#: key (a table such as [seats] or [display] is read key by key too).
BOOT_PATHS = (Path("/boot/firmware/clans-pi.toml"), Path("/boot/clans-pi.toml"))
#: Beside the settings file: the installer's --hotspot writes the Pi's Wi-Fi there.
HOTSPOT_FILE = "hotspot.toml"
WIFI_KEYS = ("wifi_name", "wifi_password")


def user_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "clans-pi" / "config.toml"


class Problem(str):
    """One thing wrong with the settings, as the log says it ("FILE: what is wrong"; when a
    whole file is left out, "; " and what is used instead). It keeps its ``file``, ``what``
    is wrong and what is ``unused`` apart, so that the screen can say it once, in the
    players' words, and name the card's own file as the maker knows it."""

    file: Path
    what: str
    unused: str  # "": one setting (``what`` says what is used instead); else the whole file

    def __new__(cls, file: Path, what: str, unused: str = "") -> Problem:
        line = super().__new__(cls, f"{file}: {what}" + (f"; {unused}" if unused else ""))
        line.file, line.what, line.unused = file, what, unused
        return line

    def __getnewargs__(self) -> tuple[Path, str, str]:  # type: ignore[override]
        return self.file, self.what, self.unused  # (copied and pickled whole)

    @property
    def on_card(self) -> bool:
        """The file is the card's own clans-pi.toml, on the boot partition (BOOT_PATHS)."""
        return self.file in BOOT_PATHS


@dataclass
class Config:
    """The settings in effect (defaults where the file says nothing or says it wrongly)."""

    seats: dict[int, str] = field(default_factory=lambda: dict.fromkeys(range(1, 5), "screen"))
    listen: tuple[str, int] = ("0.0.0.0", 8080)  # [phones] listen: where phones connect
    wifi_name: str = ""  # [phones] the Wi-Fi the phones join; "": none is shown
    wifi_password: str = ""  # its WPA passphrase; "": an open network
    pinout: Path | None = None
    state_dir: Path = field(default_factory=user_state_dir)
    language: str = "en"
    sound: bool = True
    volume: int = 60  # percent
    size: tuple[int, int] = DEFAULT_SIZE  # the window, when not full screen
    fullscreen: bool = False
    rotate: int = 0  # clockwise degrees; touch follows
    dim_after_minutes: float = 0  # 0: the backlight is never dimmed
    dim_percent: int = 10
    backlight: str = ""  # a /sys/class/backlight name; "": the first one found
    clan_marks: bool = True  # each clan's pattern on its huts (colour-blind players)
    fifth_clan: str = "black"  # or "white": how the fifth clan looks (R3; its id stays black)
    think_seconds: float = 1.0  # a Hard computer player's time per move (Normal: iterations)
    hints: bool = False  # a Hint button for human players
    workers: int | None = None  # search processes; None: "auto" (every core but one)
    source: str = "defaults"

    def seat_kind(self, seat: int) -> str:
        """How table seat ``seat`` (0-based) sees its clan."""
        return self.seats.get(seat + 1, "screen")

    @property
    def wants_gpio(self) -> bool:
        return "gpio" in self.seats.values()

    @property
    def wants_phones(self) -> bool:
        return "phone" in self.seats.values()

    @property
    def wants_handhelds(self) -> bool:
        return "handheld" in self.seats.values()

    @property
    def hotspot(self) -> Hotspot | None:
        """The Wi-Fi the start screen offers the phones, if the settings name one."""
        return Hotspot(self.wifi_name, self.wifi_password) if self.wifi_name else None


def load_config(path: str | Path | None = None) -> tuple[Config, list[Problem]]:
    """Read the settings; return them and the problems found (one line each, a
    :class:`Problem`).

    ``path`` None looks for /etc/clans-pi/config.toml, then the user's
    ~/.config/clans-pi/config.toml, and then for the card's own file, clans-pi.toml on the
    boot partition (:data:`BOOT_PATHS`), whose settings win key by key; no file at all means
    the defaults, silently. A ``path`` given is read alone.
    """
    if path is not None:
        return load_files([Path(path)])
    found = next((p for p in (*DEFAULT_PATHS, user_config_path()) if p.is_file()), None)
    boot = next((p for p in BOOT_PATHS if p.is_file()), None)
    files = [p for p in (found, boot) if p is not None]
    if not files:
        return Config(), []
    return load_files(files)


def load_files(files: Sequence[Path]) -> tuple[Config, list[Problem]]:
    """The settings of ``files`` (at least one), each over the one before it key by key, as
    :func:`load_config` reads them; and the problems found."""
    config = Config(source=" + ".join(map(str, files)))
    # The installer's hotspot.toml beside the settings file (in /etc/clans-pi when only the
    # card's own file is there); its Wi-Fi goes under both files' settings.
    beside = files[0] if files[0] not in BOOT_PATHS else next(iter(DEFAULT_PATHS), None)
    problems = [] if beside is None else _read_hotspot_file(beside.with_name(HOTSPOT_FILE),
                                                            config)
    for file in files:
        _read_file(file, config, problems,
                   unused="using the defaults" if file is files[0] else
                   "the settings in it are not used")
    return config, problems


def _read_file(path: Path, config: Config, problems: list[Problem], *, unused: str) -> None:
    """Put the settings of one file onto ``config``; what is wrong goes to ``problems``."""
    try:
        # utf-8-sig: Windows' Notepad may begin a file it saves with a byte order mark.
        data = read_toml(path, encoding="utf-8-sig")
    except FileError as exc:  # missing, unreadable, too big, not TOML: one line
        problems.append(Problem(path, exc.problem, unused))
        return
    for key in sorted(set(data) - set(TOP_LEVEL)):
        hint = (" (display settings go under [display])" if key in DISPLAY_KEYS else
                " (computer player settings go under [computer])" if key in COMPUTER_KEYS
                else "")
        problems.append(Problem(path, f"unknown setting '{key}' (ignored){hint}"))
    _read_seats(data.get("seats", {}), config, path, problems)
    _read_phones(data.get("phones", {}), config, path, problems)
    for key in ("pinout", "state_dir"):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not value:
            problems.append(Problem(path, f"'{key}' must be a path in quotes, not {value!r}"))
        else:
            setattr(config, key, Path(value))
    read = _Reader(config, path, problems)
    read.choice("language", data, LANGUAGES)
    read.flag("sound", data)
    read.number("volume", data, 0, 100, integer=True)
    display = data.get("display", {})
    if not isinstance(display, dict):
        problems.append(Problem(path, "[display] must be a table (a [display] line, then keys)"))
        return
    for key in sorted(set(display) - set(DISPLAY_KEYS)):
        problems.append(Problem(path, f"display.{key}: unknown setting (ignored)"))
    read.size("size", display)
    read.flag("fullscreen", display, "display.")
    read.choice("rotate", display, ROTATIONS, "display.")
    read.size_fits("size", display)
    read.number("dim_after_minutes", display, 0, 24 * 60, prefix="display.")
    read.number("dim_percent", display, 0, 100, integer=True, prefix="display.")
    read.text("backlight", display, "display.")
    read.flag("clan_marks", display, "display.")
    read.choice("fifth_clan", display, FIFTH_CLANS, "display.")
    computer = data.get("computer", {})
    if not isinstance(computer, dict):
        problems.append(Problem(path, "[computer] must be a table (a [computer] line, then "
                                "keys)"))
        return
    for key in sorted(set(computer) - set(COMPUTER_KEYS)):
        problems.append(Problem(path, f"computer.{key}: unknown setting (ignored)"))
    read.number("think_seconds", computer, 0.1, 30, prefix="computer.")
    read.flag("hints", computer, "computer.")
    read.workers("workers", computer, "computer.")


class _Reader:
    """Checks one setting at a time: a wrong one is a problem line and keeps its default."""

    def __init__(self, config: Config, path: Path, problems: list[Problem]) -> None:
        self.config, self.path, self.problems = config, path, problems

    def _bad(self, prefix: str, key: str, why: str) -> None:
        default = getattr(self.config, key)
        if isinstance(default, tuple):
            default = "x".join(map(str, default))
        self.problems.append(Problem(self.path, f"{prefix}{key}: {why}; using {default!r}"))

    def _typed(self, key: str, data: dict[str, Any], prefix: str, kind: type,
               want: str) -> None:
        if key in data:
            value = data[key]
            if isinstance(value, kind):
                setattr(self.config, key, value)
            else:
                self._bad(prefix, key, f"must be {want}, not {value!r}")

    def flag(self, key: str, data: dict[str, Any], prefix: str = "") -> None:
        self._typed(key, data, prefix, bool, "true or false")

    def text(self, key: str, data: dict[str, Any], prefix: str = "") -> None:
        self._typed(key, data, prefix, str, "text in quotes")

    def choice(self, key: str, data: dict[str, Any], allowed: tuple[Any, ...],
               prefix: str = "") -> None:
        if key in data:
            value = data[key]
            if value in allowed and type(value) is type(allowed[0]):
                setattr(self.config, key, value)
            else:
                self._bad(prefix, key, f"{value!r} is not one of "
                          f"{', '.join(map(str, allowed))}")

    def number(self, key: str, data: dict[str, Any], low: float, high: float, *,
               integer: bool = False, prefix: str = "") -> None:
        if key in data:
            value = data[key]
            kinds = (int,) if integer else (int, float)
            if isinstance(value, bool) or not isinstance(value, kinds):
                what = "a whole number" if integer else "a number"
                self._bad(prefix, key, f"must be {what}, not {value!r}")
            elif not low <= value <= high:
                self._bad(prefix, key, f"must be {low} to {high}, not {value!r}")
            else:
                setattr(self.config, key, value)

    def workers(self, key: str, data: dict[str, Any], prefix: str = "") -> None:
        """"auto" (None) or a whole number of processes, 1 to MAX_WORKERS."""
        if key in data:
            value = data[key]
            if value == "auto":
                setattr(self.config, key, None)
            elif isinstance(value, int) and not isinstance(value, bool) \
                    and 1 <= value <= MAX_WORKERS:
                setattr(self.config, key, value)
            else:
                self.problems.append(Problem(self.path, f"{prefix}{key}: must be \"auto\" or 1 "
                                             f"to {MAX_WORKERS}, not {value!r}; using \"auto\""))

    def size(self, key: str, data: dict[str, Any]) -> None:
        if key in data:
            value = data[key]
            try:
                w, h = (int(x) for x in str(value).lower().split("x"))
                if isinstance(value, str) and 200 <= w <= 8192 and 200 <= h <= 8192:
                    self.config.size = (w, h)
                    return
            except ValueError:
                pass
            self._bad("display.", key, f"must be like \"800x480\" (200 to 8192 pixels a "
                      f"side), not {value!r}")


    def size_fits(self, key: str, data: dict[str, Any]) -> None:
        """After the size and the rotation are read: a size the game cannot lay out."""
        if key in data and self.config.size != DEFAULT_SIZE:
            w, h = self.config.size
            why = size_problem(self.config.size, self.config.rotate, what=f"{w}x{h}",
                               turned_by="display.rotate")
            if why is not None:
                self.config.size = DEFAULT_SIZE
                self._bad("display.", key, why)


def _read_seats(raw: Any, config: Config, path: Path, problems: list[Problem]) -> None:
    if not isinstance(raw, dict):
        problems.append(Problem(path, "[seats] must be a table like  1 = \"gpio\""))
        return
    for key, kind in raw.items():
        where = f"seats.{key}"
        if not (isinstance(key, str) and key.isascii() and key.isdigit()
                and 1 <= int(key) <= MAX_PLAYERS):
            problems.append(Problem(path, f"{where}: seats are numbered 1 to {MAX_PLAYERS}"))
            continue
        if kind not in SEAT_KINDS:
            problems.append(Problem(path, f"{where}: {kind!r} is not one of "
                                    f"{', '.join(SEAT_KINDS)}; this seat uses the screen"))
            continue
        config.seats[int(key)] = kind


def _read_phones(raw: Any, config: Config, path: Path, problems: list[Problem]) -> None:
    """[phones] listen = "HOST:PORT": where phone seats' pages are served; wifi_name and
    wifi_password: the Wi-Fi they join."""
    if not isinstance(raw, dict):
        problems.append(Problem(path, "[phones] must be a table like  listen = "
                                "\"0.0.0.0:8080\""))
        return
    for key in sorted(set(raw) - {"listen", *WIFI_KEYS}):
        problems.append(Problem(path, f"phones.{key}: unknown setting (ignored)"))
    _read_wifi(raw, config, path, problems)
    value = raw.get("listen")
    if value is None:
        return
    host, _, port = value.rpartition(":") if isinstance(value, str) else ("", "", "")
    if not host or not port.isdigit() or not 0 < int(port) <= 65535:
        problems.append(Problem(path, f"phones.listen: expected \"HOST:PORT\" like "
                                f"\"0.0.0.0:8080\", not {value!r}; using 0.0.0.0:8080"))
        return
    config.listen = (host, int(port))


def _read_wifi(raw: dict[str, Any], config: Config, path: Path, problems: list[Problem]) -> None:
    """phones.wifi_name and phones.wifi_password, taken together: a name with a wrong
    password (or a password with no name) is a problem, and neither is used."""
    if not any(key in raw for key in WIFI_KEYS):
        return
    name, password = raw.get("wifi_name"), raw.get("wifi_password", "")
    unused = "the Wi-Fi in this file is not shown"
    if name is None:
        problems.append(Problem(path, f"phones.wifi_password: given without "
                                f"phones.wifi_name; {unused}"))
        return
    found = len(problems)
    for key, value, check in (("wifi_name", name, name_problem),
                              ("wifi_password", password, password_problem)):
        if not isinstance(value, str):
            problems.append(Problem(path, f"phones.{key}: must be text in quotes, not "
                                    f"{value!r}; {unused}"))
        elif value and (why := check(value)) is not None:
            problems.append(Problem(path, f"phones.{key}: {value!r} {why}; {unused}"))
    if len(problems) == found:
        assert isinstance(name, str) and isinstance(password, str)
        config.wifi_name, config.wifi_password = name, password


def _read_hotspot_file(path: Path, config: Config) -> list[Problem]:
    """The Pi's own Wi-Fi, as the installer's --hotspot wrote it beside the settings (a
    [phones] table with wifi_name and wifi_password); no such file is no problem."""
    try:
        data = read_toml(path)
    except FileMissing:
        return []
    except FileError as exc:  # unreadable, too big, not TOML: one line
        return [Problem(path, exc.problem, "the Wi-Fi in it is not shown")]
    problems = [Problem(path, f"unknown setting '{key}' (ignored; only [phones] belongs here)")
                for key in sorted(set(data) - {"phones"})]
    phones = data.get("phones", {})
    if not isinstance(phones, dict):
        return [*problems, Problem(path, "[phones] must be a table like  wifi_name = "
                                   "\"Clans Pi\"")]
    for key in sorted(set(phones) - set(WIFI_KEYS)):
        problems.append(Problem(path, f"phones.{key}: unknown setting (ignored; only "
                                "wifi_name and wifi_password belong here)"))
    _read_wifi(phones, config, path, problems)
    return problems
