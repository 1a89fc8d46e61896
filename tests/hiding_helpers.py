"""Games for the hiding analysis' tests: one player plainly playing for their clan
(the heuristic's best move for it, every time) among random movers, or random movers only."""

from __future__ import annotations

import functools
import random
from typing import Any

from clans_pi.bots.heuristic import clan_values
from clans_pi.rules.constants import CLAN_INDEX
from clans_pi.rules.record import to_record
from clans_pi.rules.setup import deal
from clans_pi.rules.state import GameState
from tests.ui_helpers import BOARD, CHART


@functools.cache
def plain_game(seed: int, players: int = 3, plain: tuple[int, ...] = (0,)) -> GameState:
    """A finished game in which the players ``plain`` (turn order) always make the move
    best for their own clan and the others move at random."""
    rng = random.Random(seed)
    state = deal(BOARD, [f"P{i}" for i in range(players)], rng, CHART)
    while not state.is_over:
        p = state.current_player
        if p in plain:
            moves = state.legal_moves()
            clan = CLAN_INDEX[state.clan_of(p)]
            values = clan_values(state, moves)
            state.play(moves[max(range(len(moves)), key=lambda i: values[i][clan])])
        else:
            state.play(state.random_legal_move(rng.random))
    return state


def plain_record(seed: int, players: int = 3, plain: tuple[int, ...] = (0,)) -> dict[str, Any]:
    """:func:`plain_game` as the store keeps it."""
    return to_record(plain_game(seed, players, plain))


__all__ = ["BOARD", "CHART", "plain_game", "plain_record"]
