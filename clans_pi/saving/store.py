"""Saving the game after every move so a pulled plug loses nothing, and keeping finished
games as records.

A save is ``{"format": "clans-save/1", "sha256": ..., "payload": {...}}``; the checksum
covers the payload (the game as clans-state/1, the seats, whether undo is allowed, the
first-game guide's topics the game has explained), so a torn or damaged file is recognised.
Writing is atomic (:func:`clans_pi.saving.files.write_atomic`): a temp file in the same
directory is written and fsynced, the current save becomes the previous one, the temp file
becomes the current one (``os.replace``), and the directory is fsynced. A kill at any
moment leaves a complete save of the last completed move in one of the three files;
:meth:`GameStore.load` takes the newest good one and moves damaged ones aside; a complete
temp file it takes is made the current save at once (the next save would overwrite it).

A finished game's last move is saved like any other. Its record is written (once: its name
holds a checksum of the game) before its end is shown, and its save is forgotten only after
the end was shown (the reveal on the screen, the headless game's result printed): a stop
anywhere in between shows that end at the next start, which keeps the record once and
forgets the save once the end is shown again. A stop in the instant between showing the
end and forgetting the save shows it once more; never does a stop make it vanish.

A card that refuses writes (read-only, another owner's directory, full) never stops the
game: loading writes nothing it cannot do without, every write that fails is said in one
sentence (:func:`cannot_save`), no temp file is left behind, and a finished game that
cannot be kept as a record yet stays a save until it can.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from ..i18n import _
from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.errors import ClansError
from ..session import Seat, Session
from .files import FileError, fsync_dir, move_into_place, read_json, temp_of, write_atomic
from .schema import SAVE_FORMAT, SchemaError, check_save, phone_links

log = logging.getLogger(__name__)


class SaveError(ClansError):
    """A save file that cannot be used (the message names the file and the fault)."""


def cannot_save(exc: OSError, directory: Path) -> str:
    """The one sentence the family sees when the game cannot be written to ``directory``
    (in their language): a read-only card, a directory the game may not write to, a full
    card each have their own; anything else names the system's error."""
    if exc.errno == errno.EROFS:
        return _("The game cannot be saved: the SD card is read-only; play goes on, but a "
                 "power cut would lose it.")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return _("The game cannot be saved: it may not write to {directory} (check who owns "
                 "it); play goes on, but a power cut would lose it.").format(
                     directory=directory)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return _("The game cannot be saved: the SD card is full; play goes on, but a power "
                 "cut would lose it.")
    return _("The game cannot be saved ({error}); play goes on, but a power cut would lose "
             "it.").format(error=exc.strerror or exc)


class GameStore:
    """The saved game and the finished games' records in ``directory``."""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        self.current = self.dir / "game.json"
        self.previous = self.dir / "game.prev.json"
        self.pending = temp_of(self.current)
        self.records = self.dir / "records"
        # Every save gets the next generation number; loading takes the newest good one
        # (not the one with most moves: an undo makes the newest save the shorter game).
        self.generation = 0
        # A finished game found at load whose record could not be written (a full card):
        # it stays the save until the record is written, before anything replaces it.
        self._unkept: Session | None = None

    # ------------------------------------------------------------ saving

    def save(self, session: Session) -> None:
        """Save ``session`` (after every completed move). Raises OSError if the disk fails
        (then no temp file is left behind: the last save stays the game)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        self._keep_unkept()
        if self.generation == 0:  # a game not loaded from here (--load, a new one's first)
            self.generation = self._newest_on_disk()
        payload = {
            "game": session.to_json(),
            "seats": [{"name": s.name, "avatar": s.avatar, "kind": s.kind}
                      for s in session.seats],
            "can_undo": session.can_undo,
            "undo_moves": session.undo_moves,
            "guide": sorted(session.guide_seen),
            "generation": self.generation + 1,
        }
        if session.phone_links:
            payload["phones"] = session.phone_links  # the same QR codes after a restart
        text = payload_text(payload)
        doc = json.dumps({"format": SAVE_FORMAT, "sha256": checksum(text), "payload": payload},
                         separators=(",", ":"))
        write_atomic(self.current, doc, previous=self.previous)
        self.generation += 1

    def _newest_on_disk(self) -> int:
        """The highest generation among the saves here (0: none readable), so that a game
        begun without loading them (``--load FILE``) saves as the newest: else a finished
        game still waiting to be shown would win the next start, and forgetting it after
        its end would take the loaded game with it."""
        newest = 0
        for path in (self.current, self.pending, self.previous):
            try:
                payload = read_json(path).get("payload")
                number = payload.get("generation") if isinstance(payload, dict) else None
            except (FileError, OSError, AttributeError):
                continue
            if isinstance(number, int) and not isinstance(number, bool):
                newest = max(newest, number)
        return newest

    def discard(self) -> None:
        """Forget the saved game (a new game replaces it). The older files go first: a cut
        in the middle must never leave an older save alone (it would bring back a move
        that was taken back, or a finished game minus its last move)."""
        self._keep_unkept()
        for path in (self.previous, self.pending, self.current):
            path.unlink(missing_ok=True)
        if self.dir.exists():
            fsync_dir(self.dir)

    def keep(self, session: Session) -> Path:
        """Keep a finished game as a record (clans-record/1); its save stays until its end
        has been shown (then :meth:`discard`), so a stop before that shows the end at the
        next start. Keeping the same game again finds its record."""
        self._keep_unkept()
        return self._record(session)

    def finish(self, session: Session) -> Path:
        """Keep a finished game as a record and forget its save at once (a game whose end
        is shown nowhere: tools and tests)."""
        path = self.keep(session)
        self.discard()
        return path

    def _keep_unkept(self) -> None:
        """The record of the finished game found at load, before its save is replaced."""
        if self._unkept is not None:
            self._record(self._unkept)
            self._unkept = None

    def _record(self, session: Session) -> Path:
        """Write the finished game's record once: its name ends with a checksum of the game
        itself (deal and moves), so keeping the same game again finds its file."""
        record = session.to_record()
        game = checksum(record_text(record))[:10]
        existing = [p for p in self.records.glob(f"*-{game}.json")]
        if existing:
            return existing[0]
        for torn in self.records.glob(f"*-{game}.json.tmp"):  # a stop while it was written
            torn.unlink(missing_ok=True)
        # What the table knew besides the moves (read by clans_pi.history): when it ended,
        # where everyone sat, their pictures and who played each seat.
        record["table"] = {
            "ended": datetime.now().astimezone().isoformat(timespec="seconds"),
            "seats": [{"name": s.name, "avatar": s.avatar, "kind": s.kind}
                      for s in session.seats],
        }
        self.records.mkdir(parents=True, exist_ok=True)
        path = self.records / f"{time.strftime('%Y%m%d-%H%M%S')}-{game}.json"
        write_atomic(path, record_text(record))
        return path

    def add_guesses(self, path: Path, guesses: list[dict[str, Any]]) -> None:
        """Add the computer players' final guesses (``{"by", "of", "clan", "weight"}``,
        players in turn order) to the record at ``path``, written at the reveal once they
        are worked out. Raises OSError (a card that refuses writes) or ValueError (the
        record is no longer a JSON object)."""
        try:
            record = read_json(path, "record")
        except FileError as exc:
            raise ValueError(str(exc)) from None
        if not isinstance(record, dict):
            raise ValueError(f"{path}: not a record")
        record["guesses"] = guesses
        write_atomic(path, record_text(record))

    # ------------------------------------------------------------ loading

    def load(self, board: Board, chart: EpochChart) -> tuple[Session | None, list[str]]:
        """The newest good saved game (None if there is none) and what went wrong on the
        way, in one friendly sentence each. Damaged files are moved aside. A finished game
        (a stop between its last move and its record) is kept as a record here, once, and
        returned: the table shows its end, and forgets its save only once the end has been
        shown. Never raises: a card that refuses writes is one more sentence, and the game
        still opens."""
        problems: list[str] = []
        refused: list[OSError] = []  # writes the card refused on the way
        best: tuple[int, Session, Path] | None = None
        damaged: list[str | None] = []  # where each damaged save was moved (None: it stayed)
        for path in (self.current, self.pending, self.previous):
            try:
                if not path.exists():
                    continue
            except OSError as exc:  # a directory the game may not read
                log.info("%s: %s", path, exc)
                refused.append(exc)
                continue
            try:
                generation, session = self._read(path, board, chart)
            except SaveError as exc:
                if path == self.pending:  # a torn temp file is normal after a power cut
                    self._unlink(path, refused)
                    continue
                log.warning("%s", exc)  # what exactly is wrong: for the maker, in English
                aside = self._move_aside(path, refused)
                damaged.append(aside.name if aside is not None else None)
                continue
            if best is None or generation > best[0]:
                best = (generation, session, path)
        if damaged:
            problems.append(_damaged(damaged, older=best is not None))
        found: Session | None = None
        if best is not None:
            self.generation, found, path = best
            if path == self.pending:
                self._promote(refused)
            if found.is_over:  # a stop between the last move and its end on the screen:
                try:               # kept now, and returned for its end to be shown
                    self._record(found)
                except OSError as exc:  # the save stays until the record is written
                    log.info("cannot keep the finished game as a record yet: %s", exc)
                    refused.append(exc)
                    self._unkept = found
        if refused:
            problems.append(cannot_save(refused[0], self.dir))
        return found, problems

    def _promote(self, refused: list[OSError]) -> None:
        """Finish the save a cut interrupted: its complete temp file becomes the current
        save (the current one, older, the previous), so the next save's temp file does not
        overwrite the only copy of the newest move."""
        try:
            move_into_place(self.pending, self.current, previous=self.previous)
        except OSError as exc:  # still loaded; the card is said to refuse
            log.info("cannot make %s the saved game: %s", self.pending, exc)
            refused.append(exc)

    def _unlink(self, path: Path, refused: list[OSError]) -> None:
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:
            log.info("cannot remove %s: %s", path, exc)
            refused.append(exc)

    def _read(self, path: Path, board: Board, chart: EpochChart) -> tuple[int, Session]:
        # A crafted file can hold anything JSON can: nesting deeper than Python recurses,
        # numbers beyond any integer (Infinity, NaN, 1e999) or too long to read, wrong types
        # anywhere. Each is a damaged save, never a crash: the guarded reader refuses the
        # size, depth and long integers, the schema the rest.
        try:
            doc = read_json(path)
        except FileError as exc:
            raise SaveError(str(exc)) from None
        return read_save(doc, board, chart, str(path))

    def _move_aside(self, path: Path, refused: list[OSError]) -> Path | None:
        aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        n = 1
        while aside.exists():
            aside = aside.with_name(f"{aside.name}.{n}")
            n += 1
        try:
            os.replace(path, aside)
        except OSError as exc:
            log.info("cannot move %s aside: %s", path, exc)
            refused.append(exc)
            return None
        return aside


def _damaged(asides: list[str | None], *, older: bool) -> str:
    """The one sentence for damaged saves: where they went, and what opens instead (the
    last good save, or nothing: a new game)."""
    files = ", ".join(name for name in asides if name is not None)
    if older:
        if files:
            return _("The saved game was damaged; it was moved aside ({files}) and the last "
                     "good save is used.").format(files=files)
        return _("The saved game was damaged and could not be moved aside; the last good "
                 "save is used.")
    if files:
        return _("The saved game was damaged; it was moved aside ({files}). There is no "
                 "older save: a new game starts.").format(files=files)
    return _("The saved game was damaged and could not be moved aside. There is no older "
             "save: a new game starts.")


def read_save(doc: Any, board: Board, chart: EpochChart, where: str) -> tuple[int, Session]:
    """The generation and the game of a save (``doc``, its JSON read), with every check
    the store makes: format, checksum, every field against the save's schema
    (:mod:`clans_pi.saving.schema`), the game replayed. ``where`` names the file in the
    one-line :class:`SaveError` that says what is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        raise SaveError(f"{where}: not a Clans save: wrong format")
    payload = doc.get("payload")
    if not isinstance(payload, dict):
        raise SaveError(f"{where}: not a Clans save: no game in it")
    try:
        digest = checksum(payload_text(payload))
    except (ValueError, RecursionError) as exc:
        raise SaveError(f"{where}: not readable: {type(exc).__name__}") from None
    if digest != doc.get("sha256"):
        raise SaveError(f"{where}: checksum mismatch")
    try:  # every field against the save's schema, before anything of it is used
        checked = check_save(doc)
    except SchemaError as exc:
        raise SaveError(f"{where}: {exc}") from None
    try:
        session = Session.load(payload["game"], board, chart,
                               seats=[Seat(s.name, s.avatar, s.kind) for s in checked.seats],
                               can_undo=checked.can_undo, undo_moves=checked.undo_moves)
    except ClansError as exc:  # what the schema cannot say: legal moves, the seats' players
        raise SaveError(f"{where}: {exc}") from None
    except (TypeError, AttributeError, ValueError, IndexError, KeyError, OverflowError,
            RecursionError) as exc:  # a value the schema let through: never a crash loop
        log.error("%s: the save's schema let through a bad value: %r", where, exc)
        raise SaveError(f"{where}: bad value ({type(exc).__name__})") from None
    session.guide_seen = set(checked.guide)
    session.phone_links = phone_links(checked)
    generation = checked.generation
    return generation, session


def record_text(record: Any) -> str:
    """A game record's text as the table keeps it in ``records/`` (its file name's checksum
    is of this text, before the table and guesses are added)."""
    return json.dumps(record, indent=1) + "\n"


def payload_text(payload: Any) -> str:
    """The text of a save's payload its checksum covers (canonical JSON)."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"))


def checksum(text: str) -> str:
    """The checksum a save carries for its payload's text (:func:`payload_text`)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
