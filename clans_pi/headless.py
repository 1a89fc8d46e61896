"""A game between computer seats with no display, saved after every move and resumed from
its state directory: ``clans-pi play --headless --seats random,hard --state-dir DIR``
(random movers and the computer players: easy, normal, hard).

For the kiosk's durability tests and for trying the save and resume path anywhere. Each
line printed after a move is printed only once that move is safely saved.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

from .bots import LEVELS, Bot, make_bot
from .persistence import GameStore, cannot_save
from .rules.board import Board
from .rules.epochs import EpochChart
from .rules.errors import ClansError
from .session import Seat, Session
from .state_lock import StateLock

SEAT_KINDS = ("random", *LEVELS)


def parse_seats(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",")]
    for k in kinds:
        if k not in SEAT_KINDS:
            raise ClansError(f"--seats: {k!r} is not a computer player ({', '.join(SEAT_KINDS)})")
    if not 2 <= len(kinds) <= 4:
        raise ClansError(f"--seats: 2 to 4 seats, not {len(kinds)}")
    return kinds


def run_headless(state_dir: str | Path, kinds: Sequence[str], board: Board, chart: EpochChart,
                 rng: random.Random, say: Callable[[str], None]) -> Session:
    """Resume the unfinished game in ``state_dir`` or deal a new one; play it to the end,
    saving after every move; keep the finished game as a record there.

    The state directory is locked first (a second game on it raises StateDirBusy). A card
    that refuses the saves (read-only, full) is said in one line, the game plays on, and
    saving is tried again after every move; ``saved move`` is printed only for a move whose
    save was written."""
    with StateLock.take(state_dir):
        return _run(GameStore(state_dir), kinds, board, chart, rng, say)


def _run(store: GameStore, kinds: Sequence[str], board: Board, chart: EpochChart,
         rng: random.Random, say: Callable[[str], None]) -> Session:
    session, problems = store.load(board, chart)
    for text in problems:
        say(text)
    failing = problems[-1] if problems else None  # said already: not again

    def saved(action: Callable[[], object]) -> bool:
        nonlocal failing
        try:
            action()
        except OSError as exc:
            text = cannot_save(exc, store.dir)
            if text != failing:
                say(text)
            failing = text
            return False
        failing = None
        return True

    if session is None:
        seats = [Seat(f"{kind.capitalize()} {i + 1}", "", kind) for i, kind in enumerate(kinds)]
        session = Session.new(seats, board, chart, rng)
        new = session
        saved(lambda: store.save(new))
        say(f"new game: {', '.join(s.name for s in session.seats)}")
    else:
        say(f"resumed at move {session.public().ply + 1}")
    playing = session
    seed = rng.randrange(2**31)
    bots: dict[int, Bot] = {
        k: make_bot(seat.kind, board, chart, seed=seed + k)
        for k, seat in enumerate(session.seats) if seat.kind in LEVELS}
    while not session.is_over:
        obs = session.public()
        bot = bots.get(session.current_seat)
        order: Sequence[int] | None = None
        if bot is not None:  # it sees its own clan and the public game only (R22)
            move = bot.choose(session.private(session.current_seat))
            order = move.order
        else:
            move = obs.legal_moves[int(rng.random() * len(obs.legal_moves))]
            founds = list(session.founds(move.src, move.dst))
            if len(founds) >= 2:  # the mover chooses the order (R11)
                rng.shuffle(founds)
                order = founds
        session.play(move.src, move.dst, order)
        if saved(lambda: store.save(playing)):
            say(f"saved move {obs.ply + 1}: {move.src}->{move.dst}")
    obs = session.public()
    assert obs.revealed_clans is not None and obs.scores is not None
    kept: list[Path] = []
    saved(lambda: kept.append(store.finish(playing)))
    for p, name in enumerate(obs.players):
        say(f"{name}: {obs.revealed_clans[p]} {obs.scores[p]}"
            f"{' winner' if p in obs.winners else ''}")
    if kept:
        say(f"record: {kept[0]}")
    return session
