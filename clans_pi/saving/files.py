"""The files the game reads and keeps: reading the project's JSON files with errors that
name the file and the fault, where the game keeps its state, and the one way it writes.

The rules package never touches the file system; this is where paths become dicts.

Every file the game reads (a save, a record, the settings, the past games' caches, the
guide's and the language's files, the handhelds' pairing, the phones' old links) goes
through one guarded reader (:func:`read_json`, :func:`read_toml`, :func:`read_text`): the
file's size first, then how deep its brackets go (Python's json module recurses once a
level and raises RecursionError), then its integers' length (Python refuses to read one of
more than 4,300 digits), then the caller's schema. What is wrong is a :class:`FileError`,
one line naming the file, never a traceback.

Every file the game keeps (the save, finished games' records, handheld pairings, the chosen
language, the guide's progress) is written by :func:`write_atomic`: a temp file beside it
(:func:`temp_of`) is written and fsynced, renamed over the file, and the directory is
fsynced, so a power cut at any moment leaves the old file or the new one, never a torn one.
A write that fails (a full or read-only card) raises ``OSError`` and leaves no temp file.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..rules.board import Board, load_default_board
from ..rules.epochs import EpochChart, load_default_chart
from ..rules.errors import ClansError

T = TypeVar("T")
log = logging.getLogger(__name__)


class FileError(ClansError):
    """A file that cannot be read or parsed; the message names the file (``where``) and
    says what is wrong (``problem``, also on its own for lists that name the file)."""

    def __init__(self, where: str, problem: str | None = None) -> None:
        super().__init__(where if problem is None else f"{where}: {problem}")
        self.problem = where if problem is None else problem


#: The largest file the game reads (its own files are far smaller: a record of a long game
#: is tens of kB, the past games' index of 1,000 games a few MB).
MAX_BYTES = 32 * 1024 * 1024
#: The deepest nesting of brackets read: the game's own files go 8 deep; Python's json
#: module recurses once a level and raises RecursionError near 1,000.
MAX_DEPTH = 64
#: The longest integer read: Python refuses to read one of more than 4,300 digits
#: (``sys.get_int_max_str_digits()``) with a ValueError; none of ours needs more than 20.
MAX_DIGITS = 30

# A JSON string (escapes included) and anything that is not a bracket: what the depth scan
# leaves out.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class FileMissing(FileError):
    """The file is not there (a cache or a choice not made yet, for some readers)."""


def read_text(path: str | Path, what: str = "", *, limit: int = MAX_BYTES,
              encoding: str = "utf-8") -> str:
    """The text of ``path`` (``-`` is standard input), at most ``limit`` bytes; raises
    :class:`FileMissing` or :class:`FileError` with one line naming the file."""
    name = _name(path, what)
    try:
        if str(path) == "-":
            text = sys.stdin.read(limit + 1)
            if len(text) > limit:
                raise FileError(name, f"larger than {_size(limit)}")
            return text
        with open(path, "rb") as f:
            data = f.read(limit + 1)
        if len(data) > limit:
            raise FileError(name, f"larger than {_size(limit)}")
        return data.decode(encoding)
    except (FileNotFoundError, NotADirectoryError):  # a file where a folder should be
        raise FileMissing(name, "no such file") from None
    except IsADirectoryError:
        raise FileError(name, "cannot read it (a directory, not a file)") from None
    except UnicodeDecodeError:
        raise FileError(name, "cannot read it (not UTF-8 text)") from None
    except OSError as exc:
        raise FileError(name, f"cannot read it ({exc.strerror})") from None


def parse_json(text: str, name: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """``text`` parsed as JSON, guarded: nesting deeper than ``max_depth`` and integers
    longer than :data:`MAX_DIGITS` digits are refused before Python's json module would
    recurse too deep or refuse the number itself. Raises :class:`FileError` with one line
    starting with ``name``."""
    depth = nesting(text)
    if depth > max_depth:
        raise FileError(name, f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_int=_int)
    except _LongInteger:
        raise FileError(name, f"an integer longer than {MAX_DIGITS} digits") from None
    except json.JSONDecodeError as exc:
        raise FileError(
            name, f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except (RecursionError, ValueError) as exc:  # the scan should have caught these
        raise FileError(name, f"not readable ({type(exc).__name__})") from None


def read_json(path: str | Path, what: str = "", *, limit: int = MAX_BYTES,
              max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON from ``path`` (``-`` is standard input) through the guards: its size,
    nesting depth and integers' length (:func:`parse_json`). Raises :class:`FileMissing`
    or :class:`FileError` with one line naming the file (``what`` says what it is)."""
    text = read_text(path, what, limit=limit)
    return parse_json(text, _name(path, what), max_depth=max_depth)


#: The largest settings file read (the example with every key is 10 kB).
MAX_SETTINGS_BYTES = 1024 * 1024


def read_toml(path: str | Path, what: str = "", *, limit: int = MAX_SETTINGS_BYTES,
              encoding: str = "utf-8") -> dict[str, Any]:
    """Parse TOML from ``path`` through the same guards as :func:`read_json`: its size, then
    nesting Python cannot recurse into and integers it refuses to read (tomllib is pure
    Python: both raise cleanly, and are said in one line). Raises :class:`FileMissing` or
    :class:`FileError` naming the file."""
    text = read_text(path, what, limit=limit, encoding=encoding)
    name = _name(path, what)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FileError(name, f"not valid TOML ({exc})") from None
    except RecursionError:
        raise FileError(name, "not valid TOML (nested too deep)") from None
    except ValueError:  # an integer of more digits than sys.get_int_max_str_digits()
        raise FileError(name, "not valid TOML (an integer too long to read)") from None


def nesting(text: str) -> int:
    """How deep the brackets of JSON ``text`` go (outside its strings): a cheap scan."""
    depth = deepest = 0
    for ch in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


class _LongInteger(ValueError):
    pass


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _LongInteger(digits[:10])
    return int(digits)


def _name(path: str | Path, what: str) -> str:
    name = "standard input" if str(path) == "-" else str(path)
    return f"{what} {name}" if what else name


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit} bytes"


def load_board(path: str | Path | None) -> Board:
    """Load a board file, or the shipped board when ``path`` is None."""
    return load_default_board() if path is None else _load(path, "board file", Board.from_dict)


def load_chart(path: str | Path | None) -> EpochChart:
    """Load an epoch chart file, or the standard chart when ``path`` is None."""
    if path is None:
        return load_default_chart()
    return _load(path, "epoch chart file", EpochChart.from_dict)


def _load(path: str | Path, what: str, parse: Callable[[Any], T]) -> T:
    data = read_json(path, what)
    try:
        return parse(data)
    except ClansError as exc:
        raise FileError(f"{what} {path}: {exc}") from None


# ------------------------------------------------------------------ where the game keeps state


def user_state_dir() -> Path:
    """Where the app keeps the saved game, records and handheld pairings: the service's
    state directory ($STATE_DIRECTORY, from systemd's StateDirectory=), else the user's
    ~/.local/state/clans-pi."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "clans-pi"


# ------------------------------------------------------------------ writing atomically


def temp_of(path: Path) -> Path:
    """The temp file :func:`write_atomic` writes ``path``'s new text to first."""
    return path.with_name(path.name + ".tmp")


def write_atomic(path: Path, text: str, *, previous: Path | None = None) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old or the new file.

    With ``previous``, the file ``path`` held becomes ``previous`` before the new one takes
    its place (:func:`move_into_place`). A write that fails (a full card) raises OSError and
    leaves no temp file behind; only a stop (a power cut, a kill) can leave a complete one,
    or, with ``previous``, a rename that fails after ``path`` became ``previous``: then the
    temp file holds the only copy of the newest text, and it is kept for loading to recover.
    """
    tmp = temp_of(path)
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if previous is not None and path.exists():
            os.replace(path, previous)
    except OSError:
        _remove(tmp)  # the old file still stands where it was
        raise
    try:
        os.replace(tmp, path)
    except OSError:
        if previous is None:
            _remove(tmp)  # the old file still stands; with previous, tmp is the newest copy
        raise
    fsync_dir(path.parent)


def move_into_place(tmp: Path, path: Path, *, previous: Path | None = None) -> None:
    """Make the complete, fsynced file ``tmp`` the file ``path`` (``os.replace``), first
    making the file ``path`` held ``previous`` if given, then fsync the directory."""
    if previous is not None and path.exists():
        os.replace(path, previous)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    """Make the directory's entries (renames, new and removed files) durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: Path) -> None:
    """Remove a temp file a failed write left (a full card still deletes)."""
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        log.info("cannot remove %s: %s", path, exc)
