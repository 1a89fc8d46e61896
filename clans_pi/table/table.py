"""The game at the table, without pygame: what happens between a tap (or a computer's choice)
and the engine, the save and the seat devices.

A :class:`Table` owns the :class:`Session` (the only holder of the secret, R22), the
:class:`GameStore` that saves after every move and undo, the :class:`SeatDevices` (the deal,
the results, a seat's button), the computer players' turns, the first-game guide's progress,
the notices for everyone and the service's status line. The touchscreen (``clans_pi.ui``)
and the headless game (``clans_pi.table.headless``) both drive it; neither saves or deals itself.

What leaves the table is public: listeners (:meth:`Table.listen`) hear each move's public
events, notices never name a clan, and a seat's own view comes only from
:meth:`Table.private`.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..history.hiding import record_of_view
from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.events import Event
from ..rules.moves import Move
from ..rules.observation import Observation
from ..saving.store import cannot_save
from ..session import Seat, Session
from .computers import BOT_PAUSE_MS, GIVE_UP_MS, BotFactory, Computers, Stage, Worker
from .guide import Guide, GuideMemory

if TYPE_CHECKING:
    from ..hardware.seats import SeatDevices
    from ..history.hiding_cache import HidingCache
    from ..saving.store import GameStore
    from ..service.watchdog import Notifier

log = logging.getLogger(__name__)

#: Hears each move's public events (R22: never a clan before the end).
Listener = Callable[[Sequence[Event]], None]


class Table:
    """One game at a time at one table, and everything that goes with it."""

    def __init__(
        self,
        board: Board,
        chart: EpochChart,
        *,
        rng: random.Random | None = None,
        devices: SeatDevices | None = None,
        store: GameStore | None = None,
        notifier: Notifier | None = None,
        bots: BotFactory | None = None,
        hints: bool = False,
        guide: GuideMemory | None = None,
        pause_ms: int = BOT_PAUSE_MS,
        log_saves: bool = True,
        stage: Callable[[], Stage | None] | None = None,
        unattended: bool = False,
    ) -> None:
        self.board = board
        self.chart = chart
        self.rng = rng or random.Random()
        self.session: Session | None = None
        self.seats: list[Seat] = []  # the last game's seats (the start screen offers them)
        self.devices = devices  # seat buttons, LEDs and handhelds; None: screen peeks only
        self.store = store  # saves the game after every move; None: nothing is saved
        #: How well each player hid, read after the game (the phones get their own chart).
        self.hiding: HidingCache | None = None
        self.notifier = notifier  # systemd: the status line
        # (seat, level) -> a Bot; None: no computer players are offered (a saved game's
        # computer seats then make random moves).
        self.bots = bots
        self.hints = hints  # a person may ask for a hint (a bot's search from their view)
        self.computers = Computers(self, pause_ms=pause_ms)
        if stage is not None:  # where a computer's move is shown and played (a screen)
            self.computers.stage = stage
        # Nobody at the table (the headless game): the computers play every seat, a saved
        # touchscreen game's people too.
        self.computers.plays_people = unattended
        # The first-game guide's progress; without a memory (tests, renders) there is none.
        self.guide = Guide(guide)
        self._failing: str | None = None  # the last sentence said about saving (not again)
        self._save_failed = False
        # Each failing save is a log line with the system's error (the journal); the
        # headless game says the sentence on standard output only.
        self._log_saves = log_saves
        self._notices: list[str] = []
        self._listeners: list[Listener] = []
        # The hint's picture for a phone (the board and the suggested move, a PNG), drawn
        # by the screen; None: phones get no hints (the headless game has no pictures).
        self.hint_picture: Callable[[Observation, Move], bytes] | None = None
        # Each player's picture for their phone's page (a PNG from the seat and its avatar
        # key), drawn by the screen; None: the pages show the names alone.
        self.seat_picture: Callable[[int, str], bytes | None] | None = None
        self._phone_hint: tuple[int, str] | None = None  # (seat holding, state told it)
        # The last finished game's record, until the computers' guesses are added to it.
        self._unguessed: tuple[Session, Path] | None = None
        # The finished game kept as a record whose end is not shown yet: its save stays
        # until :meth:`end_shown`, so a stop before the end is seen shows it at the next start.
        self._unshown: Session | None = None
        # Asked to stop (SIGTERM to the headless game): no more moves, no more waiting.
        self.stopping = False

    # ------------------------------------------------------------ a game

    def saved_game(self) -> Session | None:
        """The unfinished game the store kept, not begun yet (None: there is none, or no
        store). What went wrong on the way (a damaged file, a card that refuses writes)
        becomes a notice each."""
        if self.store is None:
            return None
        session, problems = self.store.load(self.board, self.chart)
        for text in problems:
            self.notify(text)
        self._failing = problems[-1] if problems else None  # said already: not again
        return session

    def resume(self) -> Session | None:
        """The unfinished game the store kept, begun again (None: there is none)."""
        session = self.saved_game()
        if session is not None:
            self.begin(session, resumed=True)
        return session

    def new_game(self, seats: Sequence[Seat], *, phones: Iterable[int] | None = None) -> Session:
        """Deal a new game for ``seats`` (table order) and begin it. ``phones``: the seats
        whose people see their clan on a phone this game (None: the seats that did last
        time, or as the settings say)."""
        self.seats = list(seats)
        if phones is not None and self.devices is not None:
            self.devices.use_phones(k for k in phones
                                    if k < len(self.seats) and self.seats[k].is_human)
        return self.begin(Session.new(seats, self.board, self.chart, self.rng))

    def rematch(self) -> Session:
        """A new deal for the same seats."""
        assert self.session is not None
        return self.begin(self.session.rematch(self.rng))

    def begin(self, session: Session, *, resumed: bool = False) -> Session:
        """Play ``session`` from now on: saved at once, each seat device gets its own seat's
        clan (no other), and a computer to move starts thinking."""
        self.computers.reset()
        self.computers.active = True  # a computer to move thinks while people peek
        self.session = session
        self.seats = list(session.seats)
        self.guide.start(session)
        log.info("game: %d players, %d moves played%s", session.num_seats, session.public().ply,
                 " (resumed)" if resumed else "")
        self.tell_status()
        if not session.is_over:  # a finished game's save was kept as a record (finish)
            self.save()
        if self.devices is not None:
            self.devices.deal(session, picture=self.seat_picture)
        self._tell_phone_turn()
        return session

    def finish(self) -> Path | None:
        """The game is over: the devices show the results, the record is kept (its path,
        or None when it could not be written or nothing is kept). The save stays until the
        end is shown (:meth:`end_shown`)."""
        session = self.session
        assert session is not None and session.is_over
        if self.devices is not None:
            self.devices.results(session)
            if self.hiding is not None:  # each phone's own chart, once read
                devices = self.devices
                self.hiding.reading(record_of_view(session.public())).then(
                    lambda r: devices.hiding(session, r.result) if r.result else None)
        kept: list[Path] = []
        if self.store is not None:
            store = self.store
            self._store(lambda: kept.append(store.keep(session)))
        log.info("game over after %d moves", session.public().ply)
        self.tell_status()
        if kept:
            self._unguessed = (session, kept[0])  # the computers' guesses join it later
            self._unshown = session
        return kept[0] if kept else None

    def end_shown(self) -> None:
        """The finished game's end has been shown (the reveal is on the screen, the headless
        game printed the result): its save is forgotten now, never before, so that a stop
        anywhere between the last move and this shows the end at the next start. A game
        whose record could not be written keeps its save (for the record, later)."""
        session, self._unshown = self._unshown, None
        if session is None or session is not self.session or self.store is None:
            return
        self._store(self.store.discard)

    def _keep_guesses(self) -> None:
        """The finished game's record gets the computers' final guesses once they are all
        worked out (the scoreboard counts how often each player was read right)."""
        if self._unguessed is None or self.store is None:
            return
        session, path = self._unguessed
        if session is not self.session:
            self._unguessed = None  # another game: that reveal asked for no guesses
            return
        guesses = self.computers.final_guesses(session)
        if guesses is None:
            return
        self._unguessed = None
        try:
            self.store.add_guesses(path, guesses)
        except (OSError, ValueError) as exc:  # the card said so already; the game is kept
            log.info("the record %s keeps no guesses: %s", path.name, exc)
            return

    def leave(self) -> None:
        """Back to the menu: the last game's clans leave every seat device, an unfinished
        game is not kept (the menu says so), nothing of it goes on thinking."""
        if self.devices is not None:
            self.devices.clear()
        if self.store is not None and self.session is not None and not self.session.is_over:
            self._store(self.store.discard)
        self.computers.reset()
        self.computers.active = False
        self.guide.stop()
        self._tell_phone_turn()

    def play_out(self, clock: Callable[[], int]) -> None:
        """Let the computer players play the game to its end (nobody at the table: the
        headless game), waiting for each search; then stop them."""
        assert self.session is not None
        try:
            while not self.session.is_over and not self.stopping:
                self.poll_computers(clock())
                self.computers.wait(GIVE_UP_MS / 1000)  # a search under way: until it ends
        finally:
            self.shutdown()

    def play_on(self) -> None:
        """The board is showing again (after a peek, the rules, a resumed game): computer
        players take their turns."""
        self.computers.active = True

    def stop(self) -> None:
        """Stop playing (SIGTERM to the headless game): :meth:`play_out` returns after the
        move under way, saved as every move is; the search under way is cancelled. Only
        sets flags, so a signal handler may call it."""
        self.stopping = True
        self.computers.active = False  # no move is played from here on
        self.computers.interrupt()

    def shutdown(self) -> None:
        """The program ends: every computer player's search is cancelled and waited for."""
        self.computers.shutdown()

    # ------------------------------------------------------------ moves

    def play(self, src: int, dst: int, order: Sequence[int] | None = None) -> list[Event]:
        """Play a move for the seat to move (checked by the engine), save it, and let the
        listeners hear its public events, which are returned."""
        assert self.session is not None
        events = self.session.play(src, dst, order)
        self._moved(events)
        return events

    def _moved(self, events: Sequence[Event]) -> None:
        """After every move: saved at once, the status told, the guide and the listeners
        hear it (its public events only: R22)."""
        self.computers.drop_hint()
        self._phone_hint = None
        self.save()
        self.tell_status()
        self._tell_phone_turn()
        if self.session is not None:
            self.guide.offer_events(events, self.session)
        for listener in self._listeners:
            listener(events)

    def undo(self) -> Move:
        """Take back the last move (a person's, with the computers' replies after it) and
        save, so it stays taken back; the move taken back last is returned."""
        assert self.session is not None
        move = self.session.undo()
        self._undone()
        return move

    def _undone(self) -> None:
        """After moves were taken back: a computer player's search is cancelled (it thinks
        again when its turn comes), tips about them are dropped, the game is saved."""
        self.computers.cancel()
        self._phone_hint = None
        if self.session is not None:
            self.guide.undone(self.session.public().ply)
        self.save()
        self._tell_phone_turn()

    def listen(self, listener: Listener) -> None:
        """``listener`` hears the public events of every move from now on."""
        self._listeners.append(listener)

    # ------------------------------------------------------------ views

    def public(self) -> Observation:
        """What everyone may see (R22)."""
        assert self.session is not None
        return self.session.public()

    def private(self, seat: int) -> Observation:
        """What ``seat`` may know: the public view and its own clan (its peek, its device,
        its computer player). Never shown to anyone else (R22)."""
        assert self.session is not None
        return self.session.private(seat)

    def hint_for(self, seat: int) -> None:
        """Start the search for a hint for ``seat`` (the person to move), from their own
        view only; :meth:`hint` then says when it is ready."""
        assert self.session is not None
        if seat == self.session.current_seat:
            self.computers.ask_hint()

    def ask_hint(self) -> None:
        """A hint for the person to move (the Hint button)."""
        assert self.session is not None
        self.hint_for(self.session.current_seat)

    def can_hint(self) -> bool:
        """Whether the person to move may ask for a hint now (hints on, a person's turn)."""
        return self.computers.can_hint()

    def hint(self) -> tuple[str, Move | None]:
        """The hint's state ("none", "thinking", "ready") and, when ready, its move."""
        return self.computers.hint_state()

    def thinking_seat(self) -> int | None:
        """The computer seat whose search is under way, if any (public: whose turn it is)."""
        return self.computers.thinking_seat()

    def guesses(self) -> dict[int, Worker | None]:
        """Each computer seat's guess of the others' clans at the end, worked out in the
        background (started on the first call; shown only at the reveal)."""
        assert self.session is not None
        return self.computers.guesses(self.session)

    def stop_thinking(self) -> None:
        """Cancel every search and forget the turn (quitting, a new game)."""
        self.computers.reset()

    # ------------------------------------------------------------ saving

    def save(self) -> None:
        """Save the game (nothing when there is no store). A finished game's last move is
        saved like every other, and that save stays until its end has been shown
        (:meth:`end_shown`): a stop before (the animation, the record's write, the reveal's
        first frame) shows its end at the next start, and the record is kept once."""
        session = self.session
        if self.store is not None and session is not None:
            store = self.store
            self._store(lambda: store.save(session))

    @property
    def saving(self) -> bool:
        """Whether the game in progress is being kept: saved after every move, the last
        save worked (a read-only, full or unwritable card keeps only older moves)."""
        return self.store is not None and not self._save_failed

    def _store(self, action: Callable[[], object]) -> None:
        """Run a save; a failing card is said once (a notice), never a crash."""
        try:
            action()
        except OSError as exc:
            if self._log_saves:
                log.error("cannot save the game: %s", exc)
            assert self.store is not None
            text = cannot_save(exc, self.store.dir)
            if text != self._failing:
                self.notify(text)
            self._failing = text
            self._save_failed = True
            return
        self._failing = None
        self._save_failed = False

    # ------------------------------------------------------------ notices and status

    def notify(self, text: str) -> None:
        """A short message for everyone (never a clan): the screen or the log takes it."""
        self._notices.append(text)

    def take_notices(self) -> list[str]:
        """The notices since the last call, oldest first."""
        notices, self._notices = self._notices, []
        return notices

    def status(self) -> str:
        """A public one-liner for ``systemctl status clans-pi`` (never a clan: R22)."""
        session = self.session
        if session is None:
            return "Waiting for players"
        if session.is_over:
            return f"Game over after {session.public().ply} moves"
        return f"{session.num_seats} players, move {session.public().ply + 1}"

    def tell_status(self) -> None:
        if self.notifier is not None:
            self.notifier.status(self.status())

    # ------------------------------------------------------------ the clock

    def poll_devices(self, now: int) -> list[tuple[int, str]]:
        """The seat devices' events since the last poll, (seat, "press" | "release" | ...);
        their notices (a handheld unplugged, a stuck button) join the table's."""
        if self.devices is None:
            return []
        events = []
        for seat, kind in self.devices.poll(now):
            if kind in ("hint", "hint_off"):  # a phone's hint button: the table's business
                self._phone_hint_asked(seat, kind == "hint")
            else:
                events.append((seat, kind))
        for text in self.devices.take_notices():
            self.notify(text)
        return events

    def _tell_phone_turn(self) -> None:
        """The person to move may ask their phone for a hint (when hints are on)."""
        if self.devices is None or self.devices.phones is None:
            return
        session = self.session
        self.devices.phone_hints({session.current_seat} if session is not None and
                                 self.computers.active and self.can_hint() else set())

    def _phone_hint_asked(self, seat: int, held: bool) -> None:
        """Seat ``seat``'s phone holds its hint button (or let go): the search starts from
        that seat's own view, and its phone alone gets the answer (R22)."""
        if not held:
            self._phone_hint = None
            return
        session = self.session
        if session is None or seat != session.current_seat or not self.can_hint():
            if self.devices is not None:
                self.devices.show_hint(seat, "none")
            return
        self.hint_for(seat)
        self._phone_hint = (seat, "")
        self._serve_phone_hint()

    def _serve_phone_hint(self) -> None:
        """Tell the holding phone where its hint is: still searching, none, or the
        picture of the suggested move once found."""
        if self._phone_hint is None or self.devices is None:
            return
        seat, told = self._phone_hint
        state, move = self.hint()
        if state == "thinking":
            shown, picture = "thinking", None
        elif told in ("ready", "none"):
            return  # told once: the picture is drawn and sent once per hint
        elif state == "ready" and move is not None and self.hint_picture is not None:
            shown, picture = "ready", self.hint_picture(self.public(), move)
        else:
            shown, picture = "none", None
        if shown != told:
            self._phone_hint = (seat, shown)
            self.devices.show_hint(seat, shown, picture)

    def poll_computers(self, now: int) -> bool:
        """Start, poll and play computer players' turns (their moves go to the stage);
        True when something changed that the screen shows (a move, a hint, a guess)."""
        changed = self.computers.tick(now)
        if changed:
            self._keep_guesses()
        if self._phone_hint is not None:
            self._serve_phone_hint()
        return changed

    def computer_wakeup(self) -> int | None:
        """When :meth:`poll_computers` must run again (None: no hurry)."""
        return self.computers.wakeup()
