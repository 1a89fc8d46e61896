"""A game between computer seats with no display, saved after every move and resumed from
its state directory: ``clans-pi play --headless --seats random,hard --state-dir DIR``
(random movers and the computer players: easy, normal, hard). A ``phone`` seat moves as a
random mover, but its clan is seen on a phone: with ``--listen HOST:PORT`` each phone seat's
link is printed, and play waits until every phone has confirmed its peek.

For the kiosk's durability tests and for trying the save and resume path anywhere. Each
line printed after a move is printed only once that move is safely saved.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..bots import LEVELS, Bot, make_bot
from ..i18n import _, ngettext
from ..palette import clan_name
from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.errors import ClansError
from ..rules.moves import Move
from ..saving.lock import StateLock
from ..saving.store import GameStore
from ..service.stopping import stopped_by_sigterm
from ..session import Seat, Session
from . import Table
from .computers import BotFactory

if TYPE_CHECKING:
    from ..phones.devices import Phones

#: How long the end waits for a phone that is not connected to come back for its result.
RESULT_WAIT_S = 60.0

SEAT_KINDS = ("random", "phone", *LEVELS)
PHONE = "phone"


def parse_seats(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",")]
    for k in kinds:
        if k not in SEAT_KINDS:
            raise ClansError(f"--seats: {k!r} is not a computer player ({', '.join(SEAT_KINDS)})")
    if not 2 <= len(kinds) <= 4:
        raise ClansError(f"--seats: 2 to 4 seats, not {len(kinds)}")
    return kinds


def run_headless(state_dir: str | Path, kinds: Sequence[str], board: Board, chart: EpochChart,
                 rng: random.Random, say: Callable[[str], None], *,
                 listen: tuple[str, int] = ("127.0.0.1", 8080),
                 fifth_clan: str = "black",
                 result: Callable[[str], None] | None = None) -> Session:
    """Resume the unfinished game in ``state_dir`` or deal a new one; play it to the end,
    saving after every move; keep the finished game as a record there. The clans are named
    at the end as the screen names them: in the language in use (:mod:`clans_pi.i18n`), the
    fifth as ``fifth_clan`` shows it.

    The state directory is locked first (a second game on it raises StateDirBusy). A card
    that refuses the saves (read-only, full) is said in one line, the game plays on, and
    saving is tried again after every move; ``saved move`` is printed only for a move whose
    save was written. The result (each player's clan and score, a line each) goes to
    ``result`` when given (``--quiet`` says nothing else), else to ``say``; the finished
    game's save is forgotten only after it, so a stop before tells it at the next start.
    SIGTERM stops the game as it stops the touchscreen's: after the move under way, with a
    line saying where the next start goes on (the game returned is then not over)."""
    with StateLock.take(state_dir):
        return _run(GameStore(state_dir), kinds, board, chart, rng, say, listen, fifth_clan,
                    result or say)


class _Console:
    """The headless game's stage: a computer's move is played at once, and told."""

    def __init__(self, table: Table, say: Callable[[str], None]) -> None:
        self.table = table
        self.say = say
        self.last = ""  # the game's last move, told once the finished game is kept

    def ready_for_computer(self) -> bool:
        return True

    def computer_move(self, move: Move) -> None:
        line = _("saved move {n}: {src}->{dst}").format(n=self.table.public().ply + 1,
                                                        src=move.src, dst=move.dst)
        self.table.play(move.src, move.dst, move.order)
        self.tell()
        if self.table.session is not None and self.table.session.is_over:
            self.last = line  # saved as the game's record (Table.finish)
        elif self.table.saving:  # only a move whose save was written
            self.say(line)

    def tell(self) -> None:
        """The table's notices (a card that refuses the saves, ...), a line each."""
        for text in self.table.take_notices():
            self.say(text)


def bot_factory(board: Board, chart: EpochChart, seed: int) -> BotFactory:
    """One bot per seat for the whole game, seeded from ``seed`` and the seat."""
    bots: dict[int, Bot] = {}

    def make(seat: int, level: str) -> Bot:
        if seat not in bots:
            bots[seat] = make_bot(level, board, chart, seed=seed + seat)
        return bots[seat]

    return make


def _run(store: GameStore, kinds: Sequence[str], board: Board, chart: EpochChart,
         rng: random.Random, say: Callable[[str], None],
         listen: tuple[str, int] = ("127.0.0.1", 8080), fifth_clan: str = "black",
         result: Callable[[str], None] | None = None) -> Session:
    table = Table(board, chart, rng=rng, store=store, pause_ms=0, log_saves=False,
                  stage=lambda: console, unattended=True)
    console = _Console(table, say)
    # systemctl stop (SIGTERM) ends it as it ends the touchscreen game: after the move
    # under way, saved as every move is, the searches cancelled and the phones closed.
    with stopped_by_sigterm(table.stop):
        return _play(table, console, store, kinds, board, chart, rng, say, listen,
                     fifth_clan, result)


def _play(table: Table, console: _Console, store: GameStore, kinds: Sequence[str],
          board: Board, chart: EpochChart, rng: random.Random, say: Callable[[str], None],
          listen: tuple[str, int], fifth_clan: str,
          result: Callable[[str], None] | None) -> Session:
    session = table.saved_game()
    console.tell()
    if session is None:
        seats = [Seat(f"{kind.capitalize()} {i + 1}", "", "random" if kind == PHONE else kind)
                 for i, kind in enumerate(kinds)]
        session = table.new_game(seats)
        console.tell()
        say(_("new game: {players}").format(players=", ".join(s.name for s in session.seats)))
    elif session.is_over:  # stopped after its last move, before the end was told
        ply = session.public().ply
        say(ngettext("resumed after the last move ({n} move): the game is over",
                     "resumed after the last move ({n} moves): the game is over",
                     ply).format(n=ply))
        table.begin(session, resumed=True)
        console.tell()
    else:
        say(_("resumed at move {n}").format(n=session.public().ply + 1))
        table.begin(session, resumed=True)
        console.tell()
    # Each computer seat sees its own clan and the public game only (R22); "random" seats
    # have no bot: the table's random mover plays them.
    table.bots = bot_factory(board, chart, rng.randrange(2**31))
    phones = [k for k, kind in enumerate(kinds) if kind == PHONE]
    served = (_phones_ready(table, session, phones, listen, say, store, fifth_clan)
              if phones else None)
    kept = None
    try:
        table.play_out(clock_ms)
        if session.is_over:
            kept = table.finish()  # the save stays until the result is printed
            if served is not None:
                _phones_told(session, served, say, store, board, chart, table)
    finally:
        if served is not None:
            served.close()
    console.tell()
    if not session.is_over:  # stopped (SIGTERM) before its end
        n = session.public().ply + 1
        say(_("stopped at move {n}; the game is kept").format(n=n) if table.saving else
            _("stopped at move {n}; the game goes on from the last move that was "
              "saved").format(n=n))
        return session
    if kept is not None and console.last:
        say(console.last)
    obs = session.public()
    assert obs.revealed_clans is not None and obs.scores is not None
    for p, name in enumerate(obs.players):
        (result or say)(f"{name}: {clan_name(obs.revealed_clans[p], fifth_clan)} {obs.scores[p]}"
                        + (" " + _("winner") if p in obs.winners else ""))
    if kept is not None:
        say(_("record: {path}").format(path=kept))
    table.end_shown()  # the end was told: its save goes now (a stop before: told again)
    console.tell()
    return session


def _phones_ready(table: Table, session: Session, phones: Sequence[int],
                  listen: tuple[str, int], say: Callable[[str], None],
                  store: GameStore, fifth_clan: str = "black") -> Phones:
    """Serve the phone seats as the screen does (:class:`~.phones.devices.Phones`), print
    each one's link, and wait until every phone has confirmed its peek (its seat's own view
    only, R22). No screen asks about a second phone: it gets the seat once the first one's
    channel is gone. The links of the games over before are remembered as over."""
    from ..phones.devices import Phones
    from ..phones.over import OverLinks

    served = Phones(phones, listen, fifth=fifth_clan)
    served.hub.screen = False
    served.remember_over(OverLinks(store.dir).load())
    session.phone_links = served.keep_links(session.phone_links)  # the same links resumed
    if not session.is_over:  # a game found over has its record: no save again
        table.save()  # kept with the game at once: a restart before the first move keeps them
    served.name_seats({k: (s.name, s.avatar) for k, s in enumerate(session.seats)})
    for k in phones:
        served.clans[k] = table.private(k).own_clan
        say(_("phone for {name}: {link}").format(name=session.seats[k].name, link=served.url(k)))
    # Each phone's peek before the first move; a game found over goes straight to its end.
    waiting = set() if session.is_over else set(phones)
    while waiting and not table.stopping:
        for seat, kind in served.poll():
            if kind == "seen":
                waiting.discard(seat)
                say(_("{name} has seen their clan").format(name=session.seats[seat].name))
        time.sleep(0.05)
    return served


def _phones_told(session: Session, served: Phones, say: Callable[[str], None],
                 store: GameStore, board: Board, chart: EpochChart, table: Table) -> None:
    """The end: each phone shows its seat's clan, place and whether it won (R20, R21), and
    its own chart of how well it hid, as at the screen's table; a phone not connected then
    has RESULT_WAIT_S to come back for it before the server stops. The game's links are
    over from now on."""
    from ..hardware.seats import seat_result
    from ..history.hiding import RecordError, analyse_record, record_of_view
    from ..phones.devices import PhoneDevice
    from ..phones.over import OverLinks

    try:  # a few hundredths of a second: no worker needed here
        hiding = analyse_record(record_of_view(session.public()), board, chart)
    except RecordError as exc:
        say(_("how well each player hid: not read ({problem})").format(problem=exc))
        hiding = None
    waiting = set(served.seats)
    for seat in served.seats:
        result = seat_result(session, seat)
        if result is not None:
            PhoneDevice(seat, served).show_result(*result)
        player = hiding.of(session.seats[seat].name) if hiding is not None else None
        if player is not None:
            PhoneDevice(seat, served).show_hiding(player.for_phone())
    OverLinks(store.dir).add(served.links())
    until = time.monotonic() + RESULT_WAIT_S
    told = False
    while waiting and time.monotonic() < until and not table.stopping:
        for seat, kind in served.poll():
            if kind == "result":
                waiting.discard(seat)
        if waiting and not told:
            told = True
            say(_("waiting for the phones to show the result: {names}").format(
                names=", ".join(session.seats[k].name for k in sorted(waiting))))
        time.sleep(0.05)


def clock_ms() -> int:
    return time.monotonic_ns() // 1_000_000
