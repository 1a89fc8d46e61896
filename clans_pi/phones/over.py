"""The links of games that are over, kept in the state directory between games
(``phone-links-over.json``), so that a tab an old game left open on a phone says "The game
is over" rather than "wrong link" after any number of new games, restarts included: the
newest :data:`~.tokens.KEEP_OVER`, in the order their games ended.

Written once per game (when it ends or a new one is dealt), never after each move. A file
that cannot be read or written is no error: the old links then say "wrong link" and retry
slowly, which locks nobody out (the server never refuses a right link).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from pathlib import Path

from ..saving.files import FileError, FileMissing, read_json, write_atomic
from .tokens import KEEP_OVER, newest

log = logging.getLogger(__name__)

FILE_NAME = "phone-links-over.json"


class OverLinks:
    """The old links kept in ``directory`` (None: kept nowhere)."""

    KEEP = KEEP_OVER

    def __init__(self, directory: str | Path | None) -> None:
        self.path = Path(directory) / FILE_NAME if directory is not None else None

    def load(self) -> tuple[str, ...]:
        """The old links, oldest first (none when the file is missing or damaged)."""
        if self.path is None:
            return ()
        try:
            data = read_json(self.path)
        except FileMissing:
            return ()
        except FileError as exc:
            log.info("phones: the old links are not readable (%s): starting afresh", exc)
            return ()
        links = data.get("over") if isinstance(data, dict) else None
        if not isinstance(links, list):
            links = []  # a damaged file (any JSON): starting afresh, as for a missing one
        return newest(t for t in links if isinstance(t, str) and 22 <= len(t) <= 64)

    def add(self, links: Iterable[str]) -> tuple[str, ...]:
        """``links`` are over now: kept after those already kept; returns them all."""
        kept = newest((*self.load(), *links), self.KEEP)
        if self.path is not None:
            try:
                write_atomic(self.path, json.dumps({"over": list(kept)}) + "\n")
            except OSError as exc:  # the card said so already, with the save
                log.info("phones: the old links are not kept (%s)", exc.strerror)
        return kept
