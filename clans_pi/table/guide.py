"""The first-game guide: short explanations that come up as things first happen in a game
(the secret deal, the first turn, a group of 7 or more, the first village, strife, a new
epoch, the end), each once per game, and what this device remembers of it.

Tips are made from public facts only (R22): the move's events and the public view, never the
secret state. Which topics a game has shown lives in its :class:`Session` (``guide_seen``), so
it is saved with the game and a resumed game does not explain them again. Whether the family
has finished or skipped the guide is one small file in the state directory
(:class:`GuideMemory`); once it says so, later games on the device show no guide until the
start screen turns it back on.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..rules.constants import BIG_GROUP, CLANS, NUM_CLANS
from ..rules.events import EpochChanged, Event, Moved, VillageFounded
from ..saving.files import FileError, FileMissing, read_json, write_atomic
from ..session import Session

log = logging.getLogger(__name__)

#: Every topic, in the order a game usually meets them.
TOPICS = ("secret", "move", "big", "village", "strife", "epoch", "end")
GUIDE_FILE = "guide.json"


@dataclass(frozen=True, slots=True)
class Tip:
    """One explanation to show: its ``topic``, the screen it belongs on ("peek", "play",
    "reveal"), the public move count it was made at (an undo past it drops it), and the
    public facts its text and pointer need."""

    topic: str
    screen: str
    ply: int
    territory: int | None = None  # the board territory to point at
    epoch: int | None = None  # the epoch chart column to point at
    name: str = ""  # a player's name (the mover, the founder)
    chip: int = 0
    value: int = 0  # what the village scored for each clan in it
    count: int = 0  # huts (a big group, huts lost in strife)
    reason: str = ""  # how the game ended


class GuideMemory:
    """Whether the guide is done on this device: ``path`` holds ``{"version": 1, "done":
    true|false}``; ``path`` None remembers for this run only.

    A file that cannot be read or makes no sense is one warning in the log and counts as
    *not done*: showing the guide once too often costs a family one tap ("Skip the guide"),
    hiding it from newcomers would cost them the help they came for. It is rewritten the
    next time the guide is finished, skipped or switched. A file that cannot be written is a
    warning too; the choice then lasts until the game stops.
    """

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else Path(path)
        self.problem: str | None = None
        self.done = False
        if self.path is not None:
            self._load(self.path)

    def _load(self, path: Path) -> None:
        try:
            data = read_json(path)
        except FileMissing:
            return  # a new device: the guide is on
        except FileError as exc:  # unreadable, not JSON, too big or too deep
            self._warn(f"{exc}; the guide is shown")
            return
        if (not isinstance(data, dict) or data.get("version") != 1
                or not isinstance(data.get("done"), bool)):
            self._warn(f'{path}: not a guide file (wants {{"version": 1, "done": true or '
                       'false}); the guide is shown')
            return
        self.done = data["done"]

    def _warn(self, text: str) -> None:
        self.problem = text
        log.warning("%s", text)

    def set_done(self, done: bool) -> None:
        """Remember ``done`` (finished or skipped: True; turned back on: False)."""
        self.done = done
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, json.dumps({"version": 1, "done": done}) + "\n")
        except OSError as exc:
            self._warn(f"{self.path}: cannot save the guide setting ({exc.strerror or exc}); "
                       "it lasts until the game stops")


class Guide:
    """The guide of the game in progress: topics waiting to be shown, the one showing, and
    the topics this game has shown (its session's ``guide_seen``)."""

    def __init__(self, memory: GuideMemory | None) -> None:
        self.memory = memory  # None: no guide at all (tests, `clans-pi render`)
        self.seen: set[str] = set()
        self.queue: list[Tip] = []
        self.current: Tip | None = None

    @property
    def available(self) -> bool:
        """This app has a guide (the start screen offers the switch)."""
        return self.memory is not None

    @property
    def on(self) -> bool:
        """The guide explains things in this game."""
        return self.memory is not None and not self.memory.done

    def switch(self, on: bool) -> None:
        """The start screen's switch: on again for the next game, or off."""
        if self.memory is not None:
            self.memory.set_done(not on)
        if not on:
            self.queue.clear()
            self.current = None

    # ------------------------------------------------------------ a game

    def start(self, session: Session) -> None:
        """A game begins or resumes: its own record of what it has shown."""
        self.seen = session.guide_seen
        self.queue.clear()
        self.current = None

    def stop(self) -> None:
        """The game was left (the menu): nothing of it is shown any more."""
        self.seen = set()
        self.queue.clear()
        self.current = None

    def offer(self, tip: Tip) -> None:
        """Queue ``tip`` unless the guide is off or this game has shown (or is showing) its
        topic. A queued tip of the same topic is replaced (it is now due on another screen)."""
        if not self.on or tip.topic in self.seen:
            return
        if self.current is not None and self.current.topic == tip.topic:
            return
        self.queue = [q for q in self.queue if q.topic != tip.topic]
        self.queue.append(tip)

    def offer_events(self, events: Sequence[Event], session: Session) -> None:
        """Tips for what a move did, from its public events and the public view after it."""
        if not self.on:
            return
        obs = session.public()
        villages = {v.territory: v for v in obs.villages}
        for e in events:
            if isinstance(e, Moved):
                if e.total >= BIG_GROUP and e.dst not in villages:
                    self.offer(Tip("big", "play", obs.ply, territory=e.dst, count=e.total))
            elif isinstance(e, VillageFounded):
                founder = session.seats[session.seat_of(e.founder)].name
                v = villages.get(e.territory)
                self.offer(Tip("village", "play", obs.ply, territory=e.territory,
                               epoch=e.epoch, name=founder, chip=e.chip,
                               value=0 if v is None else v.value))
                if v is not None:
                    met = {CLANS[c] for c, n in enumerate(v.huts) if n} | set(v.lost)
                    if len(met) == NUM_CLANS:  # R12.2: strife, even when nobody lost a hut
                        self.offer(Tip("strife", "play", obs.ply, territory=e.territory,
                                       count=len(v.lost)))
            elif isinstance(e, EpochChanged):
                self.offer(Tip("epoch", "play", obs.ply, epoch=e.epoch))

    def undone(self, ply: int) -> None:
        """Moves were taken back to ``ply``: tips about them are dropped unseen (their topics
        come again when they next happen)."""
        self.queue = [q for q in self.queue if q.ply <= ply]

    def waiting(self, screen: str) -> bool:
        """A tip is showing, or waiting for ``screen``: nothing may happen under it."""
        return self.current is not None or any(q.screen == screen for q in self.queue)

    def take(self, screen: str) -> Tip | None:
        """Show the next tip waiting for ``screen``, if any (the screen is ready for it)."""
        if self.current is None:
            for k, tip in enumerate(self.queue):
                if tip.screen == screen:
                    self.current = self.queue.pop(k)
                    break
        return self.current

    def close(self) -> str | None:
        """"Got it": the tip showing is done for this game; returns its topic. After the
        end's explanation the whole guide is done on this device."""
        tip, self.current = self.current, None
        if tip is None:
            return None
        self.seen.add(tip.topic)
        if tip.topic == "end" and self.memory is not None:
            self.memory.set_done(True)
            self.queue.clear()
        return tip.topic

    def skip(self) -> None:
        """"Skip the guide": done on this device, nothing more is shown."""
        if self.memory is not None:
            self.memory.set_done(True)
        self.queue.clear()
        self.current = None
