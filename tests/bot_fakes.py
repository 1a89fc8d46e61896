"""Small fake computer players for the touchscreen tests: they follow the Bot protocol
(clans_pi/bots/base.py) and record every observation they were given, so a test can check
that a bot only ever saw its own seat's view (R22)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from clans_pi.bots.base import Cancelled, rebuild
from clans_pi.rules.constants import CLANS
from clans_pi.rules.moves import Move
from clans_pi.rules.observation import Observation
from clans_pi.session import Seat, Session
from tests.ui_helpers import BOARD, CHART, random_session

WAIT_S = 10.0  # only a safety net for a broken test; nothing is timed


@dataclass
class Seen:
    """One call to a fake bot: which seat's bot, what for, and the view it got."""

    seat: int
    level: str
    call: str  # "choose" or "guess"
    obs: Observation
    thread: threading.Thread


class FirstBot:
    """Plays its view's first legal move (a village order reversed, so the order is really
    the bot's); guesses every other player evenly among the clans it does not hold, with a
    little more weight on the first."""

    def __init__(self, bots: Bots, seat: int, level: str) -> None:
        self.bots, self.seat, self.level = bots, seat, level

    def _note(self, call: str, obs: Observation) -> None:
        self.bots.seen.append(Seen(self.seat, self.level, call, obs, threading.current_thread()))

    def first_move(self, obs: Observation) -> Move:
        move = obs.legal_moves[0]
        founds = rebuild(obs, BOARD, CHART).founds(move)  # from its own view only
        return move.with_order(tuple(reversed(founds))) if len(founds) >= 2 else move

    def choose(self, obs: Observation, *, cancel: threading.Event | None = None) -> Move:
        self._note("choose", obs)
        return self.first_move(obs)

    def guess(self, obs: Observation) -> dict[int, dict[str, float]]:
        self._note("guess", obs)
        others = [c for c in CLANS if c != obs.own_clan]
        out = {}
        for p in range(len(obs.players)):
            if p != obs.viewer:
                out[p] = {c: (0.4 if k == 0 else 0.2) for k, c in enumerate(others)}
                out[p][obs.own_clan] = 0.0
        return out


class ClanBot(FirstBot):
    """Advises by its own clan, as a real search does: the legal move whose place in the
    view's list is the clan's place among the clans (so a shown hint would give it away)."""

    def first_move(self, obs: Observation) -> Move:
        assert obs.own_clan is not None
        moves = obs.legal_moves
        return Move(*moves[CLANS.index(obs.own_clan) * 7 % len(moves)][:2])


class BlockingBot(FirstBot):
    """Thinks until the test releases it, or until it is cancelled."""

    def choose(self, obs: Observation, *, cancel: threading.Event | None = None) -> Move:
        self._note("choose", obs)
        assert cancel is not None
        self.bots.cancels.append(cancel)
        self.bots.started.set()
        while not cancel.wait(0.002):
            if self.bots.release.is_set():
                return self.first_move(obs)
        raise Cancelled


class RaisingBot(FirstBot):
    """A broken bot whose error message names a clan (the log must not repeat it)."""

    def choose(self, obs: Observation, *, cancel: threading.Event | None = None) -> Move:
        self._note("choose", obs)
        raise RuntimeError(f"{obs.own_clan} clan: oops")


@dataclass
class Bots:
    """The app's ``bots`` factory: (seat, level) -> a fake bot of ``kind``."""

    kind: type[FirstBot] = FirstBot
    seen: list[Seen] = field(default_factory=list)
    made: list[tuple[int, str]] = field(default_factory=list)
    cancels: list[threading.Event] = field(default_factory=list)
    started: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    def __call__(self, seat: int, level: str) -> FirstBot:
        self.made.append((seat, level))
        return self.kind(self, seat, level)

    def wait_started(self) -> None:
        assert self.started.wait(WAIT_S), "the bot never started thinking"
        self.started.clear()


def with_kinds(session: Session, kinds: tuple[str, ...]) -> Session:
    """The same game with these seat kinds (table order)."""
    seats = [Seat(s.name, s.avatar, k) for s, k in zip(session.seats, kinds, strict=True)]
    return Session(session._state, seats)


def computer_to_move(n: int = 3, *, seed: int = 5, moves: int = 20,
                     level: str = "hard") -> Session:
    """A game in which the seat to move is a computer and seat 0 or 1 is a person."""
    session = random_session(n, seed=seed, moves=moves)
    cur = session.current_seat
    person = 1 if cur == 0 else 0
    return with_kinds(session, tuple("human" if k == person else level for k in range(n)))


def worker_done(app) -> None:
    """Wait until the current computer turn's search has ended (a thread join, not a
    timing check)."""
    turn = app.table.computers.turn
    assert turn is not None and turn.worker is not None
    assert turn.worker.join(WAIT_S), "the bot's thread did not end"
