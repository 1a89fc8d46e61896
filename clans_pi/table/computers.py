"""Computer players at the table: each bot thinks on a worker thread, so the touchscreen stays
responsive, and its move is played like anyone's once the stage (the play screen, or the
headless game) can show it.

A bot gets one seat's own view only (:meth:`Session.private`), built here on the table's
thread and handed over; the worker never touches the session (R22). A search is cancelled through
its ``threading.Event`` on undo, a new game or quitting, and its result is then ignored.
A bot that fails (raises, returns an illegal move, takes far too long) makes a random legal
move for that turn, with a notice and a log line that names no clan.

The same machinery gives a person a hint (a bot's search from *their own* view) and, at the
reveal, each computer player's last guess of who had which clan.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..bots.base import Bot, Cancelled
from ..bots.calibration import likeliest
from ..i18n import _
from ..rules.moves import Move
from ..service.logs import where
from ..session import COMPUTER_KINDS, HUMAN, Session

if TYPE_CHECKING:
    from ..rules.observation import Observation
    from .table import Table

log = logging.getLogger(__name__)

#: (seat, level) -> a Bot for that seat; the app's ``bots`` parameter.
BotFactory = Callable[[int, str], Bot]

BOT_PAUSE_MS = 700  # a computer's move comes at least this long after its turn is on screen
GIVE_UP_MS = 60_000  # a search still running after this long: a random move instead
JOIN_S = 1.0  # how long quitting waits for each cancelled search to end
#: The level whose search gives a person's hint: the strongest advice the table has.
HINT_LEVEL = "hard"

Key = tuple[int, int, Move | None]  # (session, ply, last move): one position of one game


class Stage(Protocol):
    """Where a computer player's move is shown and played: the play screen (which animates
    it, then plays it through the table), or the headless game (which plays it at once)."""

    def ready_for_computer(self) -> bool:
        """Nothing else is happening: a computer's move may come now."""
        ...

    def computer_move(self, move: Move) -> None:
        """Show and play ``move``, the computer's choice."""
        ...

    def say(self, text: str) -> None:
        """A short message about the game in progress (a hint that failed)."""
        ...


class Worker:
    """One call on a daemon thread. ``fn`` gets the ``cancel`` event; its result, or the
    exception it raised, waits here for the UI thread."""

    def __init__(self, name: str, fn: Callable[[threading.Event], Any]) -> None:
        self.cancel = threading.Event()
        self.result: Any = None
        self.error: Exception | None = None
        self.cancelled = False
        self._done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(fn,), name=name, daemon=True)
        self.thread.start()

    def _run(self, fn: Callable[[threading.Event], Any]) -> None:
        try:
            self.result = fn(self.cancel)
        except Cancelled:
            self.cancelled = True
        except Exception as exc:  # a bot's bug must not end the game
            self.error = exc
        finally:
            self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for the call to finish; True if it has."""
        return self._done.wait(timeout)

    def join(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for the thread to end; True if it has."""
        self.thread.join(timeout)
        return not self.thread.is_alive()


@dataclass
class Turn:
    """A computer player's turn: its search (None: no bot, the random mover plays it) and
    since when the play screen shows that it is thinking."""

    key: Key
    seat: int
    worker: Worker | None
    started: int
    shown: int | None = None


@dataclass
class Hint:
    key: Key
    seat: int
    worker: Worker
    seen: bool = False


def private_view(session: Session, seat: int) -> Observation:
    """What ``seat`` may know, and never more: at the end the others' clans are dropped, and
    so are the scores and who won (with the public clan points and chips they narrow the
    others' clans), so a guess shows what the bot had worked out, not what the reveal told
    it."""
    obs = session.private(seat)
    if obs.revealed_clans is not None or obs.scores is not None or obs.winners:
        obs = dataclasses.replace(obs, revealed_clans=None, scores=None, winners=())
    return obs


def checked(move: object, session: Session) -> Move | None:
    """``move`` if it is a legal move now (its village order too, R11), else None."""
    if not isinstance(move, tuple) or len(move) != 3:
        return None
    src, dst, order = move
    if not any(m.src == src and m.dst == dst for m in session.public().legal_moves):
        return None
    if order is not None:
        try:
            if sorted(order) != list(session.founds(src, dst)):
                return None
        except TypeError:
            return None
        order = tuple(order)
    return Move(src, dst, order)


class Computers:
    """The table's computer players: starts each one's search when its turn comes, hands
    the move to the stage when it is ready for it, and the hints and final guesses.

    ``stage`` says where moves are shown now (None: nowhere, e.g. another screen is up);
    ``pause_ms``: a computer's move comes at least this long after its turn is shown."""

    def __init__(self, table: Table, *, pause_ms: int = BOT_PAUSE_MS) -> None:
        self.table = table
        self.stage: Callable[[], Stage | None] = lambda: None
        self.pause_ms = pause_ms
        # Nobody sits at the table (the headless game): a person's seat, e.g. in a game
        # the touchscreen saved, makes random moves too.
        self.plays_people = False
        self.active = False  # a game is on (the play screen was shown since the menu)
        self.turn: Turn | None = None
        self.hint: Hint | None = None
        self._guesses: dict[int, Worker | None] = {}
        self._guess_session: Session | None = None
        self._guesses_told: set[int] = set()
        self._stopping: list[Worker] = []  # cancelled, not yet ended

    # ------------------------------------------------------------ who plays

    @property
    def factory(self) -> BotFactory | None:
        return self.table.bots

    def _key(self, session: Session) -> Key:
        obs = session.public()
        return (id(session), obs.ply, obs.moves[-1] if obs.moves else None)

    def _bot(self, seat: int, level: str, notice: str | None = None) -> Bot | None:
        """A bot for ``seat`` at ``level``, or None (no bots, or a seat kind that is not a
        level, e.g. a headless game's "random": the random mover plays it). A factory that
        fails is logged, and ``notice`` shown."""
        factory = self.factory
        if factory is None or level not in COMPUTER_KINDS:
            return None
        try:
            return factory(seat, level)
        except Exception as exc:
            log.error("seat %d: no %s computer player (%s at %s)", seat + 1, level,
                      type(exc).__name__, where(exc))
            if notice:
                self.table.notify(notice)
            return None

    def thinking_seat(self) -> int | None:
        """The seat whose computer player is thinking now (for the indicator)."""
        session = self.table.session
        if self.turn is None or session is None or self.turn.key != self._key(session):
            return None
        return self.turn.seat

    # ------------------------------------------------------------ the loop

    def tick(self, now: int) -> bool:
        """Run from the loop: start, poll and play computer turns; True when a hint or a
        guess arrived (the picture changes)."""
        self._reap()
        changed = self._poll_hint()
        for seat, w in self._guesses.items():
            if w is not None and w.done and seat not in self._guesses_told:
                self._guesses_told.add(seat)
                changed = True  # the reveal screen shows it
                if w.error is not None:
                    log.error("seat %d: no final guess (%s at %s)", seat + 1,
                              type(w.error).__name__, where(w.error))
        session = self.table.session
        if not self.active or session is None or session.is_over:
            self._drop_turn()
            return changed
        seat = session.current_seat
        if session.seats[seat].kind == HUMAN and not self.plays_people:
            self._drop_turn()
            return changed
        key = self._key(session)
        if self.turn is None or self.turn.key != key:
            self._drop_turn()
            self.turn = self._start(session, seat, key, now)
        turn = self.turn
        stage = self.stage()
        if (stage is None or not stage.ready_for_computer()
                or self.table.guide.waiting("play")):  # the guide's card is read first
            turn.shown = None  # the pause starts again when the board is back
            return changed
        if turn.shown is None:
            turn.shown = now
        worker = turn.worker
        if worker is not None and not worker.done:
            if now - turn.started < GIVE_UP_MS:
                return changed
            log.error("seat %d: no move after %d s; a random legal move instead",
                      seat + 1, GIVE_UP_MS // 1000)
            self.table.notify(_("{name} took too long; it made a random move this time.").format(
                name=session.seats[seat].name))
            self._cancel(worker)
            turn.worker = worker = None
        elif now < turn.shown + self.pause_ms:
            return changed
        move = self._move(turn, session)
        self.turn = None
        stage.computer_move(move)
        return True

    def wakeup(self) -> int | None:
        """When the loop must look again (the loop polls a running search anyway)."""
        turn = self.turn
        if turn is None or turn.shown is None:
            return None
        if turn.worker is None or turn.worker.done:
            return turn.shown + self.pause_ms
        return turn.started + GIVE_UP_MS

    def wait(self, timeout: float) -> None:
        """Wait up to ``timeout`` s for the search of the turn under way to end (the
        headless game, which has nothing else to do meanwhile)."""
        turn = self.turn
        if turn is not None and turn.worker is not None:
            turn.worker.wait(timeout)

    def _start(self, session: Session, seat: int, key: Key, now: int) -> Turn:
        s = session.seats[seat]
        bot = self._bot(seat, s.kind, f"{s.name} cannot think; it makes random moves.")
        worker = None
        if bot is not None:
            obs = session.private(seat)  # built here; the worker never sees the session
            worker = Worker(f"clans-bot-seat{seat + 1}",
                            lambda cancel: bot.choose(obs, cancel=cancel))
        log.info("seat %d (computer, %s) thinks about move %d", seat + 1, s.kind, key[1] + 1)
        return Turn(key, seat, worker, now)

    def _move(self, turn: Turn, session: Session) -> Move:
        """The bot's move, or a random legal one (with a notice) if it has none."""
        worker, seat = turn.worker, turn.seat
        name = session.seats[seat].name
        if worker is None:
            return self.random_move(session)
        if worker.error is not None:
            exc = worker.error
            log.error("seat %d: the computer player failed (%s at %s); a random legal "
                      "move instead", seat + 1, type(exc).__name__, where(exc))
        elif worker.cancelled:
            log.error("seat %d: the computer player stopped by itself; a random legal move "
                      "instead", seat + 1)
        else:
            move = checked(worker.result, session)
            if move is not None:
                return move
            log.error("seat %d: the computer player chose a move that is not legal; a "
                      "random legal move instead", seat + 1)
        self.table.notify(_("{name} could not decide; it made a random move this time.").format(
            name=name))
        return self.random_move(session)

    def random_move(self, session: Session) -> Move:
        """A uniformly random legal move with a random village order (R11)."""
        rng = self.table.rng
        moves = session.public().legal_moves
        move = moves[int(rng.random() * len(moves))]
        founds = list(session.founds(move.src, move.dst))
        if len(founds) < 2:
            return Move(move.src, move.dst)
        rng.shuffle(founds)
        return Move(move.src, move.dst, tuple(founds))

    # ------------------------------------------------------------ hints

    def can_hint(self) -> bool:
        """A hint may be asked: hints are on, there are bots, a person is to move."""
        session = self.table.session
        return (self.table.hints and self.factory is not None and session is not None
                and not session.is_over and session.seats[session.current_seat].is_human)

    def ask_hint(self) -> None:
        """Start the search for the person to move, from their own view only."""
        session = self.table.session
        if not self.can_hint() or session is None:
            return
        key = self._key(session)
        if self.hint is not None and self.hint.key == key:
            return
        self.drop_hint()
        seat = session.current_seat
        bot = self._bot(seat, HINT_LEVEL)
        if bot is None:
            self._say(_("No hint this time"))
            return
        obs = session.private(seat)
        log.info("seat %d asked for a hint at move %d", seat + 1, key[1] + 1)
        self.hint = Hint(key, seat, Worker(f"clans-hint-seat{seat + 1}",
                                           lambda cancel: bot.choose(obs, cancel=cancel)))

    def hint_state(self) -> tuple[str, Move | None]:
        """("none" | "thinking" | "ready" | "failed", the suggested move when ready)."""
        session = self.table.session
        hint = self.hint
        if hint is None or session is None or hint.key != self._key(session):
            return "none", None
        if not hint.worker.done:
            return "thinking", None
        move = checked(hint.worker.result, session) if hint.worker.error is None else None
        return ("ready", move) if move is not None else ("failed", None)

    def _poll_hint(self) -> bool:
        hint = self.hint
        if hint is None or hint.seen or not hint.worker.done:
            return False
        hint.seen = True
        state, _move = self.hint_state()
        if state == "failed":
            exc = hint.worker.error
            log.error("seat %d: no hint (%s)", hint.seat + 1,
                      "an illegal move" if exc is None else
                      f"{type(exc).__name__} at {where(exc)}")
            self._say(_("No hint this time"))
        return True

    def _say(self, text: str) -> None:
        stage = self.stage()
        if stage is not None:
            stage.say(text)

    def drop_hint(self) -> None:
        if self.hint is not None:
            self._cancel(self.hint.worker)
            self.hint = None

    # ------------------------------------------------------------ the reveal

    def guesses(self, session: Session) -> dict[int, Worker | None]:
        """Each computer seat's final guess of the others' clans (``bot.guess`` from its
        own view), started once per finished game; a seat without a bot maps to None."""
        if self._guess_session is not session:
            self._stop_guesses()
            self._guess_session = session
            for seat, s in enumerate(session.seats):
                if s.is_human:
                    continue
                bot = self._bot(seat, s.kind)
                if bot is None:
                    self._guesses[seat] = None
                    continue
                obs = private_view(session, seat)
                self._guesses[seat] = Worker(f"clans-guess-seat{seat + 1}",
                                             lambda _cancel, bot=bot, obs=obs: bot.guess(obs))
        return self._guesses

    def final_guesses(self, session: Session) -> list[dict[str, object]] | None:
        """The guesses of ``session``'s end as its record keeps them, once every computer
        seat's is worked out (None until then, or when none was asked for): for each
        computer player (``by``) and each other player (``of``, turn order), the clan it
        named and its weight; a guess that could not tell two clans apart is left out."""
        if self._guess_session is not session or not self._guesses:
            return None
        if any(w is not None and not w.done for w in self._guesses.values()):
            return None
        out: list[dict[str, object]] = []
        for seat, w in sorted(self._guesses.items()):
            if w is None or w.error is not None or not isinstance(w.result, dict):
                continue
            by = session.player_of(seat)
            for of, dist in sorted(w.result.items()):
                clan, weight = likeliest(dist)
                if clan is not None and isinstance(of, int) and of != by:
                    out.append({"by": by, "of": of, "clan": clan,
                                "weight": round(weight, 3)})
        return out

    def _stop_guesses(self) -> None:
        for w in self._guesses.values():
            if w is not None:
                self._cancel(w)
        self._guesses = {}
        self._guesses_told = set()
        self._guess_session = None

    # ------------------------------------------------------------ stopping

    def _cancel(self, worker: Worker) -> None:
        """Ask a search to stop and forget its result; it ends by itself (daemon thread)."""
        worker.cancel.set()
        if not worker.done:
            self._stopping.append(worker)

    def _reap(self) -> None:
        if self._stopping:
            self._stopping = [w for w in self._stopping if w.thread.is_alive()]

    def _drop_turn(self) -> None:
        if self.turn is not None:
            if self.turn.worker is not None:
                self._cancel(self.turn.worker)
            self.turn = None

    def interrupt(self) -> None:
        """Ask the turn's search under way to stop, and nothing more (a signal handler may
        call it: it only sets that search's cancel event); whoever waits for it goes on."""
        turn = self.turn
        if turn is not None and turn.worker is not None:
            turn.worker.cancel.set()

    def cancel(self) -> None:
        """Cancel the turn's search and the hint (undo, a new game, quitting); a computer
        to move starts thinking again on the next loop turn."""
        self._drop_turn()
        self.drop_hint()

    def reset(self) -> None:
        """A new game or the menu: nothing of the old game goes on."""
        self.cancel()
        self._stop_guesses()

    def shutdown(self, timeout: float = JOIN_S) -> None:
        """Cancel everything and wait (``timeout`` s each) for the threads to end; then
        the bots' worker processes are stopped (a factory with a ``close``)."""
        self.active = False
        self.reset()
        for w in self._stopping:
            if not w.join(timeout):
                log.warning("a computer player's thread (%s) did not stop", w.thread.name)
        self._reap()
        close = getattr(self.factory, "close", None)
        if callable(close):
            close()

    @property
    def threads(self) -> list[threading.Thread]:
        """Every worker thread still running (tests: none survives)."""
        workers = [*self._stopping, *(w for w in self._guesses.values() if w is not None)]
        if self.turn is not None and self.turn.worker is not None:
            workers.append(self.turn.worker)
        if self.hint is not None:
            workers.append(self.hint.worker)
        return [w.thread for w in workers if w.thread.is_alive()]
