"""Saving the game after every move so a pulled plug loses nothing, and keeping finished
games as records.

A save is ``{"format": "clans-save/1", "sha256": ..., "payload": {...}}``; the checksum
covers the payload (the game as clans-state/1, the seats, whether undo is allowed, the
first-game guide's topics the game has explained), so a torn or damaged file is recognised.
Writing is atomic: a temp file in the same directory is
written and fsynced, the current save becomes the previous one, the temp file becomes the
current one (``os.replace``), and the directory is fsynced. A kill at any moment leaves a
complete save of the last completed move in one of the three files; :meth:`GameStore.load`
takes the newest good one and moves damaged ones aside.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from .i18n import _
from .rules.board import Board
from .rules.epochs import EpochChart
from .rules.errors import ClansError
from .session import Seat, Session

SAVE_FORMAT = "clans-save/1"
log = logging.getLogger(__name__)


class SaveError(ClansError):
    """A save file that cannot be used (the message names the file and the fault)."""


def default_state_dir() -> Path:
    """The service's state directory ($STATE_DIRECTORY, set by systemd's StateDirectory=),
    else the user's ~/.local/state/clans-pi."""
    from .config import user_state_dir

    return user_state_dir()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old or the new file."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


class GameStore:
    """The saved game and the finished games' records in ``directory``."""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        self.current = self.dir / "game.json"
        self.previous = self.dir / "game.prev.json"
        self.pending = self.dir / "game.json.tmp"
        self.records = self.dir / "records"
        # Every save gets the next generation number; loading takes the newest good one
        # (not the one with most moves: an undo makes the newest save the shorter game).
        self.generation = 0

    # ------------------------------------------------------------ saving

    def save(self, session: Session) -> None:
        """Save ``session`` (after every completed move). Raises OSError if the disk fails."""
        self.dir.mkdir(parents=True, exist_ok=True)
        payload = {
            "game": session.to_json(),
            "seats": [{"name": s.name, "avatar": s.avatar, "kind": s.kind}
                      for s in session.seats],
            "can_undo": session.can_undo,
            "undo_moves": session.undo_moves,
            "guide": sorted(session.guide_seen),
            "generation": self.generation + 1,
        }
        text = _canonical(payload)
        doc = json.dumps({"format": SAVE_FORMAT, "sha256": _digest(text), "payload": payload},
                         separators=(",", ":"))
        with open(self.pending, "w", encoding="utf-8") as f:
            f.write(doc)
            f.flush()
            os.fsync(f.fileno())
        if self.current.exists():
            os.replace(self.current, self.previous)
        os.replace(self.pending, self.current)
        _fsync_dir(self.dir)
        self.generation += 1

    def discard(self) -> None:
        """Forget the saved game (a new game replaces it). The older files go first: a cut
        in the middle must never leave an older save alone (it would bring back a move
        that was taken back, or a finished game minus its last move)."""
        for path in (self.previous, self.pending, self.current):
            path.unlink(missing_ok=True)
        if self.dir.exists():
            _fsync_dir(self.dir)

    def finish(self, session: Session) -> Path:
        """Keep a finished game as a record (clans-record/1) and forget the save."""
        record = session.to_record()
        text = json.dumps(record, indent=1) + "\n"
        self.records.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = f"{stamp}-{_digest(text)[:10]}.json"
        existing = [p for p in self.records.glob(f"*-{_digest(text)[:10]}.json")]
        path = existing[0] if existing else self.records / name
        if not existing:
            write_atomic(path, text)
        self.discard()
        return path

    # ------------------------------------------------------------ loading

    def load(self, board: Board, chart: EpochChart) -> tuple[Session | None, list[str]]:
        """The newest good saved game (None if there is none) and what went wrong on the
        way, in one friendly sentence each. Damaged files are moved aside."""
        problems: list[str] = []
        best: tuple[int, Session] | None = None
        for path in (self.current, self.pending, self.previous):
            if not path.exists():
                continue
            try:
                generation, session = self._read(path, board, chart)
            except SaveError as exc:
                if path == self.pending:  # a torn temp file is normal after a power cut
                    path.unlink(missing_ok=True)
                    continue
                log.warning("%s", exc)
                aside = self._move_aside(path)
                fault = exc.args[0].split(": ")[-1]
                problems.append(_("The saved game was damaged ({fault}); it was moved to "
                                  "{file} and an older save is used.").format(
                                      fault=fault, file=aside.name))
                continue
            if best is None or generation > best[0]:
                best = (generation, session)
        if best is None:
            return None, problems
        self.generation = best[0]
        session = best[1]
        if session.is_over:  # finished but not yet archived (a cut during finish)
            self.finish(session)
            return None, problems
        return session, problems

    def _read(self, path: Path, board: Board, chart: EpochChart) -> tuple[int, Session]:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SaveError(f"{path}: not readable: {type(exc).__name__}") from None
        if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
            raise SaveError(f"{path}: not a Clans save: wrong format")
        payload = doc.get("payload")
        if _digest(_canonical(payload)) != doc.get("sha256"):
            raise SaveError(f"{path}: checksum mismatch")
        try:
            seats = [Seat(str(s["name"]), str(s.get("avatar", "")), str(s.get("kind", "human")))
                     for s in payload["seats"]]
            undo_moves = payload.get("undo_moves")  # saves before computers: can_undo only
            session = Session.load(payload["game"], board, chart, seats=seats,
                                   can_undo=bool(payload.get("can_undo")),
                                   undo_moves=None if undo_moves is None else int(undo_moves))
            generation = int(payload["generation"])
            guide = payload.get("guide", [])  # saves before the guide have none
            if isinstance(guide, list):
                session.guide_seen = {g for g in guide if isinstance(g, str)}
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise SaveError(f"{path}: incomplete: missing {exc}") from None
        except ClansError as exc:
            raise SaveError(f"{path}: {exc}") from None
        return generation, session

    def _move_aside(self, path: Path) -> Path:
        aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        n = 1
        while aside.exists():
            aside = aside.with_name(f"{aside.name}.{n}")
            n += 1
        try:
            os.replace(path, aside)
        except OSError as exc:
            log.warning("cannot move %s aside: %s", path, exc)
        return aside


def _canonical(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
