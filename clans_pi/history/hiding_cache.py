"""The readings of how well each player hid (:mod:`.hiding`), worked out once per game on a
background thread and kept in ``past-games-hiding.json`` beside the past games' index.

That file is derived, never a second source of truth: an entry is found by a digest of the
game itself (its players, clans, deal and moves: the computers' guesses added to a record
later, or a name merged, do not matter), and the whole file is dropped when the engine,
the belief model, the board or the chart differ from those that made it. A damaged file is
ignored (the next reading rewrites it); a card that refuses the write only means the next
start reads the game again. The newest :data:`KEEP` games are kept.

:meth:`HidingCache.reading` returns at once: a :class:`Reading` whose ``progress`` (0..1)
the screen shows as a ring until ``result`` (or ``error``, one line) is there.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.errors import ClansError
from ..saving.files import FileError, FileMissing, read_json, write_atomic
from .hiding import MODEL_VERSION, Hiding, _guesses, analyse_record
from .index import BAD_VALUE, rules_digest

log = logging.getLogger(__name__)

CACHE_NAME = "past-games-hiding.json"
CACHE_FORMAT = "clans-past-games-hiding/1"
#: How many games' readings the file keeps (the most recently read).
KEEP = 300


class Reading:
    """One game's reading, worked out on a daemon thread (or found in the cache)."""

    def __init__(self) -> None:
        self.progress = 0.0
        self.result: Hiding | None = None
        self.error: str | None = None
        self._done = threading.Event()
        self._then: list[Callable[[Reading], None]] = []
        self._then_lock = threading.Lock()

    def then(self, fn: Callable[[Reading], None]) -> None:
        """Call ``fn(self)`` once the reading is done (now, if it is; else on the worker's
        thread)."""
        with self._then_lock:
            if not self._done.is_set():
                self._then.append(fn)
                return
        fn(self)

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    def _finish(self, result: Hiding | None, error: str | None = None) -> None:
        self.result, self.error, self.progress = result, error, 1.0
        with self._then_lock:
            self._done.set()
            then, self._then = self._then, []
        for fn in then:
            try:
                fn(self)
            except Exception:  # a listener's bug must not end the game
                log.exception("after a reading")


def game_digest(record: Any) -> str:
    """The digest of a record's game: its players, clans, deal and moves (nothing else).
    Raises TypeError or ValueError for a record that is no JSON object."""
    if not isinstance(record, Mapping):
        raise TypeError("record: expected a JSON object")
    game = {k: record.get(k) for k in ("format", "players", "clans", "huts", "moves")}
    text = json.dumps(game, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@functools.cache
def model_digest() -> str:
    """A digest of the reading's code: the belief model, the heuristic it reads moves
    with, and the analysis itself (a change to any makes every kept reading stale)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(MODEL_VERSION.encode())
    for rel in ("bots/belief.py", "bots/heuristic.py", "bots/base.py", "history/hiding.py"):
        digest.update((root / rel).read_bytes())
    return digest.hexdigest()[:16]


class HidingCache:
    """The readings of the games kept in the state directory ``state_dir`` (None: a table
    that keeps nothing; the readings live while it runs)."""

    def __init__(self, state_dir: str | Path | None, board: Board, chart: EpochChart) -> None:
        self.dir = Path(state_dir) if state_dir is not None else None
        self.path = self.dir / CACHE_NAME if self.dir is not None else None
        self.board = board
        self.chart = chart
        self._lock = threading.Lock()
        self._kept: dict[str, Any] | None = None  # digest -> Hiding.to_cache(), oldest first
        self._running: dict[str, Reading] = {}

    def _key(self) -> dict[str, Any]:
        return {"format": CACHE_FORMAT, "rules": rules_digest(), "model": model_digest(),
                "board": self.board.id, "chart": self.chart.to_dict()}

    def load(self) -> None:
        """Read the file once (at start, on the past games' thread; else the first reading
        does it on its own thread)."""
        with self._lock:
            self._load()

    def _load(self) -> dict[str, Any]:
        if self._kept is None:
            self._kept = {}
            if self.path is None:
                return self._kept
            try:
                doc = read_json(self.path)
            except FileMissing:
                return self._kept
            except FileError as exc:  # only a cache: rebuilt as games are read again
                log.info("%s not used, rebuilt: %s", self.path, exc.problem)
                return self._kept
            if (isinstance(doc, dict) and doc.get("key") == self._key()
                    and isinstance(doc.get("games"), dict)):
                self._kept = doc["games"]
        return self._kept

    def _found(self, digest: str, record: Any) -> Hiding | None:
        """The kept reading of ``digest`` (with ``record``'s computers' guesses), or None."""
        kept = self._load()
        entry = kept.get(digest)
        if entry is None:
            return None
        try:
            hiding = Hiding.from_cache(entry)
        except Exception as exc:  # only a cache: read the game again
            log.info("a kept reading not used: %s", type(exc).__name__)
            del kept[digest]
            return None
        kept[digest] = kept.pop(digest)  # the most recently read
        guesses = record.get("guesses") if isinstance(record, Mapping) else None
        return dataclasses.replace(hiding, guesses=_guesses(guesses, len(hiding.players)))

    def cached(self, record: Any) -> Hiding | None:
        """The reading of ``record``'s game if it is kept (reads the file if need be)."""
        try:
            digest = game_digest(record)
        except (TypeError, ValueError):
            return None
        with self._lock:
            return self._found(digest, record)

    def reading(self, record: Any) -> Reading:
        """The reading of ``record``'s game (parsed JSON): kept already, being worked out,
        or started now on a daemon thread. Never raises: a damaged record's reading has
        ``error``, one line."""
        try:
            digest = game_digest(record)
        except (TypeError, ValueError) as exc:
            reading = Reading()
            reading._finish(None, str(exc))
            return reading
        with self._lock:
            running = self._running.get(digest)
            if running is not None:
                return running
            reading = Reading()
            if self._kept is not None:
                found = self._found(digest, record)
                if found is not None:
                    reading._finish(found)
                    return reading
            self._running[digest] = reading
        threading.Thread(target=self._work, args=(digest, record, reading),
                         name="clans-hiding", daemon=True).start()
        return reading

    def _work(self, digest: str, record: Any, reading: Reading) -> None:
        try:
            with self._lock:
                found = self._found(digest, record)
            if found is not None:
                reading._finish(found)
                return

            def progress(share: float) -> None:
                reading.progress = share

            try:
                hiding = analyse_record(record, self.board, self.chart, progress=progress)
            except ClansError as exc:
                reading._finish(None, str(exc))
                return
            except BAD_VALUE as exc:
                reading._finish(None, f"bad value ({type(exc).__name__})")
                return
            with self._lock:
                kept = self._load()
                kept[digest] = hiding.to_cache()
                while len(kept) > KEEP:
                    del kept[next(iter(kept))]
                self._write(kept)
            reading._finish(hiding)
        except Exception as exc:  # a bug here must not end the game: the chart says so
            log.exception("reading a game failed")
            reading._finish(None, f"{type(exc).__name__}: {exc}")
        finally:
            with self._lock:
                self._running.pop(digest, None)

    def _write(self, kept: dict[str, Any]) -> None:
        try:
            if self.dir is None or self.path is None or not self.dir.is_dir():
                return
            write_atomic(self.path, json.dumps({"key": self._key(), "games": kept},
                                               separators=(",", ":")))
        except OSError as exc:
            log.info("cannot keep %s: %s", self.path, exc)
