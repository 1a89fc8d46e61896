"""Reading the project's JSON files from disk, with errors that name the file and the fault.

The rules package never touches the file system; this is where paths become dicts.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .rules.board import Board, load_default_board
from .rules.epochs import EpochChart, load_default_chart
from .rules.errors import ClansError

T = TypeVar("T")


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
