"""The past games' index: every finished game's record in the state directory's ``records/``,
read once and kept in memory, newest first. The records are the only source of truth: the
index is derived from them and follows them (:meth:`History.refresh` re-reads only files
that are new or changed since, and forgets files that are gone). A damaged record drops out
with one log line, never a crash; :attr:`History.damaged` says which and why.

Reading a record means replaying it through the engine (about 1 ms a game here, four times
that on a Pi), so what the index derived is also kept in ``past-games-index.json`` beside
the records' directory: at the next start a record whose size and time are those noted
there is not replayed again. That file is only a cache: it is checked against the records
on every refresh, rebuilt when it is missing, damaged, or made by other rules (a digest of
the engine's source, :func:`rules_digest`), board or chart; a card that refuses to write it
only makes the next start slower.

Deleting a game deletes its record; merging a renamed person's old games under their new
name rewrites those records' names (atomically, :func:`clans_pi.saving.files.write_atomic`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.errors import ClansError
from ..saving.files import FileError, FileMissing, read_json, write_atomic
from ..saving.store import record_text
from .past_game import PastGame, game_from_json, game_to_json, read_past_game
from .replay import GameReplay

log = logging.getLogger(__name__)

#: What a crafted record's values can raise on their way through the engine besides
#: ClansError (wrong types anywhere, numbers beyond any integer, nesting too deep).
BAD_VALUE = (TypeError, ValueError, KeyError, AttributeError, OverflowError, RecursionError)
#: The cache of what the index derived from the records, beside their directory.
CACHE_NAME = "past-games-index.json"
#: Its format: a change to what it holds (PastGame, PastPlayer) must change this.
CACHE_FORMAT = "clans-past-games-index/1"


class RecordGone(ClansError):
    """A past game's record is no longer on the card (deleted since the list was read)."""


@dataclass(frozen=True, slots=True)
class Damaged:
    """A record the index could not use: its file name and what is wrong, in one line."""

    file: str
    problem: str


@dataclass(frozen=True, slots=True)
class Merged:
    """What a merge of names did: records rewritten, and records left as they were because
    both names played in that game (the family's two different people)."""

    changed: int
    skipped: int


class History:
    """The finished games kept in ``records`` (a directory; it need not exist yet)."""

    def __init__(self, records: str | Path, board: Board, chart: EpochChart) -> None:
        self.dir = Path(records)
        self.board = board
        self.chart = chart
        # file name -> ((size, mtime_ns), the game or what is wrong with it)
        self._seen: dict[str, tuple[tuple[int, int], PastGame | Damaged]] = {}
        self._lock = threading.Lock()  # the app reads it in the background at start
        self._games: list[PastGame] = []
        self.cache = self.dir.parent / CACHE_NAME
        self._cache_read = False

    # ------------------------------------------------------------ reading

    def refresh(self, *, log_damaged: bool = True) -> list[PastGame]:
        """Bring the index up to date with the records on the card (new, changed, deleted
        files) and return the games, newest first. A directory that cannot be read is an
        empty history (logged). Each record found damaged is a log line, unless
        ``log_damaged`` is False (the caller says it: :attr:`damaged`). Waits while another
        thread refreshes it (the game's first pass at start)."""
        with self._lock:
            return self._refresh(log_damaged)

    def try_refresh(self) -> list[PastGame] | None:
        """:meth:`refresh`, or None at once while another thread is at it (a screen asks
        again a moment later rather than freezing)."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            return self._refresh(True)
        finally:
            self._lock.release()

    def _refresh(self, log_damaged: bool) -> list[PastGame]:
        if not self._cache_read:
            self._cache_read = True
            self._seen = self._read_cache()
        try:
            entries = [e for e in os.scandir(self.dir)
                       if e.name.endswith(".json") and e.is_file()]
        except FileNotFoundError:
            entries = []
        except OSError as exc:
            log.warning("cannot read the past games in %s: %s", self.dir, exc)
            entries = []
        seen: dict[str, tuple[tuple[int, int], PastGame | Damaged]] = {}
        for entry in entries:
            try:
                st = entry.stat()
            except OSError:  # gone meanwhile
                continue
            key = (st.st_size, st.st_mtime_ns)
            old = self._seen.get(entry.name)
            if old is not None and old[0] == key:
                seen[entry.name] = old
                continue
            found = self._read(Path(entry.path), st.st_mtime)
            if isinstance(found, Damaged) and log_damaged:
                log.warning("past game %s left out: %s", found.file, found.problem)
            seen[entry.name] = (key, found)
        if seen.keys() != self._seen.keys() or any(
                seen[f][0] != self._seen[f][0] for f in seen):
            self._write_cache(seen)
        self._seen = seen
        games = [g for _k, g in seen.values() if isinstance(g, PastGame)]
        games.sort(key=lambda g: (g.date, g.file), reverse=True)
        self._games = games
        return list(games)

    @property
    def games(self) -> list[PastGame]:
        """The games as last refreshed, newest first."""
        return list(self._games)

    @property
    def damaged(self) -> list[Damaged]:
        """The records left out at the last refresh, by file name."""
        return sorted((g for _k, g in self._seen.values() if isinstance(g, Damaged)),
                      key=lambda d: d.file)

    # ------------------------------------------------------------ the cache

    def _cache_key(self) -> dict[str, Any]:
        return {"format": CACHE_FORMAT, "rules": rules_digest(), "board": self.board.id,
                "chart": self.chart.to_dict()}

    def _read_cache(self) -> dict[str, tuple[tuple[int, int], PastGame | Damaged]]:
        """What the last run derived, or nothing when the cache is missing, damaged or
        was made by another version, board or chart (then every record is read)."""
        try:
            doc = read_json(self.cache)
        except FileMissing:
            return {}
        except FileError as exc:  # only a cache: every record is read, and it is rebuilt
            log.info("%s not used, rebuilt: %s", self.cache, exc.problem)
            return {}
        if not isinstance(doc, dict) or doc.get("key") != self._cache_key():
            return {}
        seen: dict[str, tuple[tuple[int, int], PastGame | Damaged]] = {}
        try:
            for file, entry in doc["records"].items():
                key = (int(entry["size"]), int(entry["mtime_ns"]))
                if "problem" in entry:
                    seen[file] = (key, Damaged(file, str(entry["problem"])))
                else:
                    seen[file] = (key, game_from_json(file, entry["game"]))
        except Exception as exc:  # only a cache: anything odd in it, read the records
            log.info("%s not used: %s", self.cache, type(exc).__name__)
            return {}
        return seen

    def _write_cache(self, seen: dict[str, tuple[tuple[int, int], PastGame | Damaged]]) -> None:
        records: dict[str, Any] = {}
        for file, ((size, mtime), found) in seen.items():
            entry: dict[str, Any] = {"size": size, "mtime_ns": mtime}
            if isinstance(found, Damaged):
                entry["problem"] = found.problem
            else:
                entry["game"] = game_to_json(found)
            records[file] = entry
        doc = {"key": self._cache_key(), "records": records}
        try:
            if not self.cache.parent.is_dir():
                return  # no state directory (yet): nothing to keep the cache in
            write_atomic(self.cache, json.dumps(doc, separators=(",", ":")))
        except OSError as exc:  # a read-only card: the next start reads every record
            log.info("cannot keep %s: %s", self.cache, exc)

    def _read(self, path: Path, modified: float) -> PastGame | Damaged:
        try:
            data = read_json(path)
        except FileError as exc:
            return Damaged(path.name, f"not readable ({exc.problem})")
        try:
            return read_past_game(data, path.name, self.board, self.chart, modified=modified)
        except ClansError as exc:
            return Damaged(path.name, str(exc))
        except BAD_VALUE as exc:
            return Damaged(path.name, f"bad value ({type(exc).__name__})")

    def open(self, file: str) -> GameReplay:
        """The game kept as ``file``, to replay: read again from its record, which must
        still replay legally. Raises ClansError with one line when it is gone or damaged."""
        data = self.record(file)
        try:
            return GameReplay(data, file, self.board, self.chart)
        except ClansError:  # a ValueError too: its own words say what is wrong
            raise
        except BAD_VALUE as exc:
            raise ClansError(f"{file}: bad value ({type(exc).__name__})") from None

    def record(self, file: str) -> Any:
        """The record of ``file`` as parsed JSON (for its replay). Raises ClansError with
        one line when it is gone or unreadable."""
        path = self._path(file)
        try:
            return read_json(path)
        except FileMissing:
            raise RecordGone(f"{file}: the record is gone") from None
        except FileError as exc:
            raise ClansError(f"{file}: not readable ({exc.problem})") from None

    def _path(self, file: str) -> Path:
        if Path(file).name != file or not file.endswith(".json"):
            raise ClansError(f"{file!r} is not a record's file name")
        return self.dir / file

    # ------------------------------------------------------------ changing

    def delete(self, file: str) -> None:
        """Delete the game kept as ``file`` (its record); the index follows. A record gone
        already is not an error. Raises OSError when the card refuses."""
        self._path(file).unlink(missing_ok=True)
        self.refresh()

    def names(self) -> list[str]:
        """Every person's name in the past games, in alphabetical order (computers have
        their level instead: they are not renamed)."""
        return sorted({p.name for g in self._games for p in g.players if p.is_human},
                      key=str.casefold)

    def merge(self, old: str, new: str) -> Merged:
        """Rename the person ``old`` to ``new`` in every past game: their old games count
        under the new name from now on. A game in which both names played keeps both (two
        people). Raises OSError when the card refuses a write (the records written so far
        keep the new name; the rest the old one: nothing is lost)."""
        if old == new:
            return Merged(0, 0)
        changed = skipped = 0
        try:
            for game in self._games:
                names = [p.name for p in game.players]
                if old not in names or not game.players[names.index(old)].is_human:
                    continue
                if new in names:
                    skipped += 1
                    continue
                path = self._path(game.file)
                try:
                    data = read_json(path)
                except FileMissing:
                    continue
                except FileError:
                    continue  # damaged or unreadable since: the next refresh says so
                write_atomic(path, record_text(_renamed(data, old, new, game.date)))
                changed += 1
        finally:  # also when the card refused a write: the index shows what is on it
            self.refresh()
        return Merged(changed, skipped)


def _renamed(data: Any, old: str, new: str, ended: datetime) -> Any:
    """A record with the player ``old`` called ``new`` (its players and its table). A record
    that did not say when it ended says it now (``ended``, as the index dated it): its file's
    new time must not make it today's game."""
    if not isinstance(data, dict):
        return data
    if not isinstance(data.get("table"), dict):
        data["table"] = {}
    table = data["table"]
    table.setdefault("ended", ended.isoformat(timespec="seconds"))
    players = data.get("players")
    if isinstance(players, list):
        data["players"] = [new if p == old else p for p in players]
    if isinstance(table.get("seats"), list):
        for seat in table["seats"]:
            if isinstance(seat, dict) and seat.get("name") == old:
                seat["name"] = new
    return data


@functools.cache
def rules_digest() -> str:
    """A digest of the engine's source and data (clans_pi/rules): a game of another version
    may not replay the same, so the index's cache of another engine is not used."""
    root = Path(__file__).resolve().parent.parent / "rules"
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".json")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
