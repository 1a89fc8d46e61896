"""The random mover: a uniformly random legal move, with a uniformly random village order.

For benchmarks, tests and headless play. Deterministic for a given seed.
"""

from __future__ import annotations

import random

from ..rules.moves import Move
from ..rules.state import GameState


class RandomMover:
    """Choose uniformly among legal moves, then uniformly among village orders (R11)."""

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, state: GameState) -> Move:
        """Return a legal move for the player to move in ``state``."""
        move = state.random_legal_move(self.rng.random)
        founded = list(state.founds(move))
        if len(founded) < 2:
            return move
        self.rng.shuffle(founded)
        return move.with_order(founded)

    def play_game(self, state: GameState) -> GameState:
        """Play ``state`` to the end, checking each move; return it."""
        while not state.is_over:
            state.play(self.choose(state))
        return state
