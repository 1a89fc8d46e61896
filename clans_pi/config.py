"""The settings file (TOML): how each seat sees its clan, and where the pin map is.

A bad file never stops the game: every problem becomes one line naming the file, the key
and what is wrong, and that setting keeps its default.

    [seats]
    1 = "gpio"        # the seat's button and LED on the Pi (hardware/pinout.toml)
    2 = "handheld"    # a Pico handheld on USB, paired from the start screen
    3 = "screen"      # the press-and-hold peek on the touchscreen (the default)
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .rules.constants import MAX_PLAYERS

SEAT_KINDS = ("screen", "gpio", "handheld")
DEFAULT_PATHS = (Path("/etc/clans-pi/config.toml"),)


def user_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "clans-pi" / "config.toml"


def user_state_dir() -> Path:
    """Where the app keeps the saved game, records and handheld pairings: the service's
    state directory ($STATE_DIRECTORY, from systemd's StateDirectory=), else the user's
    ~/.local/state/clans-pi."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "clans-pi"


@dataclass
class Config:
    """The settings in effect (defaults where the file says nothing or says it wrongly)."""

    seats: dict[int, str] = field(default_factory=lambda: dict.fromkeys(range(1, 5), "screen"))
    pinout: Path | None = None
    state_dir: Path = field(default_factory=user_state_dir)
    source: str = "defaults"

    def seat_kind(self, seat: int) -> str:
        """How table seat ``seat`` (0-based) sees its clan."""
        return self.seats.get(seat + 1, "screen")

    @property
    def wants_gpio(self) -> bool:
        return "gpio" in self.seats.values()

    @property
    def wants_handhelds(self) -> bool:
        return "handheld" in self.seats.values()


def load_config(path: str | Path | None = None) -> tuple[Config, list[str]]:
    """Read the settings; return them and the problems found (one line each).

    ``path`` None looks for /etc/clans-pi/config.toml, then the user's
    ~/.config/clans-pi/config.toml; no file at all means the defaults, silently.
    """
    if path is None:
        for candidate in (*DEFAULT_PATHS, user_config_path()):
            if candidate.is_file():
                path = candidate
                break
        else:
            return Config(), []
    path = Path(path)
    config = Config(source=str(path))
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return config, [f"{path}: no such file; using the defaults"]
    except (OSError, UnicodeDecodeError) as exc:
        return config, [f"{path}: cannot read it ({exc}); using the defaults"]
    except tomllib.TOMLDecodeError as exc:
        return config, [f"{path}: not valid TOML ({exc}); using the defaults"]
    problems: list[str] = []
    for key in sorted(set(data) - {"seats", "pinout", "state_dir"}):
        problems.append(f"{path}: unknown setting '{key}' (ignored)")
    _read_seats(data.get("seats", {}), config, path, problems)
    for key in ("pinout", "state_dir"):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not value:
            problems.append(f"{path}: '{key}' must be a path in quotes, not {value!r}")
        else:
            setattr(config, key, Path(value))
    return config, problems


def _read_seats(raw: Any, config: Config, path: Path, problems: list[str]) -> None:
    if not isinstance(raw, dict):
        problems.append(f"{path}: [seats] must be a table like  1 = \"gpio\"")
        return
    for key, kind in raw.items():
        where = f"{path}: seats.{key}"
        if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= MAX_PLAYERS):
            problems.append(f"{where}: seats are numbered 1 to {MAX_PLAYERS}")
            continue
        if kind not in SEAT_KINDS:
            problems.append(f"{where}: {kind!r} is not one of {', '.join(SEAT_KINDS)}; "
                            "this seat uses the screen")
            continue
        config.seats[int(key)] = kind
