"""The files the game reads and keeps: reading the project's JSON files with errors that
name the file and the fault, where the game keeps its state, and the one way it writes.

The rules package never touches the file system; this is where paths become dicts.

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
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..rules.board import Board, load_default_board
from ..rules.epochs import EpochChart, load_default_chart
from ..rules.errors import ClansError

T = TypeVar("T")
log = logging.getLogger(__name__)


class FileError(ClansError):
    """A file that cannot be read or parsed; the message names the file."""


def read_json(path: str | Path, what: str) -> Any:
    """Parse JSON from ``path`` (``-`` is standard input); raise FileError naming it."""
    name = "standard input" if str(path) == "-" else str(path)
    try:
        text = sys.stdin.read() if str(path) == "-" else Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileError(f"{what} {name}: no such file") from None
    except IsADirectoryError:
        raise FileError(f"{what} {name}: is a directory, not a file") from None
    except UnicodeDecodeError:
        raise FileError(f"{what} {name}: not a UTF-8 text file") from None
    except OSError as exc:
        raise FileError(f"{what} {name}: cannot read it ({exc.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FileError(
            f"{what} {name}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None


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
