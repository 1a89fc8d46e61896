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
from .persistence import GameStore
from .rules.board import Board
from .rules.epochs import EpochChart
from .rules.errors import ClansError
from .session import Seat, Session

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
    saving after every move; keep the finished game as a record there."""
    store = GameStore(state_dir)
    session, problems = store.load(board, chart)
    for text in problems:
        say(text)
    if session is None:
        seats = [Seat(f"{kind.capitalize()} {i + 1}", "", kind) for i, kind in enumerate(kinds)]
        session = Session.new(seats, board, chart, rng)
        store.save(session)
        say(f"new game: {', '.join(s.name for s in session.seats)}")
    else:
        say(f"resumed at move {session.public().ply + 1}")
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
        store.save(session)
        say(f"saved move {obs.ply + 1}: {move.src}->{move.dst}")
    obs = session.public()
    assert obs.revealed_clans is not None and obs.scores is not None
    path = store.finish(session)
    for p, name in enumerate(obs.players):
        say(f"{name}: {obs.revealed_clans[p]} {obs.scores[p]}"
            f"{' winner' if p in obs.winners else ''}")
    say(f"record: {path}")
    return session
