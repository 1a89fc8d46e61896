"""The easy computer player: sensible moves for its own clan, with the odd blunder.

It draws a move with probability ``softmax(EASY_BETA * value for its clan)`` over the legal
moves (:func:`.heuristic.clan_values`), so better moves are likelier but a poor one comes
up now and then, and founds villages in the order best for its clan (R11). It does not
search and does not use what it believes about the others' clans to choose; it answers at
once. It sees only its own observation (R22).
"""

from __future__ import annotations

import random
import threading

from ..rules.board import Board
from ..rules.constants import CLAN_INDEX
from ..rules.epochs import EpochChart
from ..rules.moves import Move
from ..rules.observation import Observation
from .base import Budget, Cancelled, rebuild
from .belief import BeliefTracker
from .heuristic import best_order, clan_values, softmax

__all__ = ["EASY_BETA", "EasyBot"]

#: How sharply the easy player prefers better moves, per point of heuristic value. Chosen
#: by measurement (200 seeded 2-player games each): with 0.75 it beats a random mover 89.5 %
#: of the time (95 % Wilson interval 84.5-93.0 %; 0.5 gave 79 %, 1.0 gave 98 %) and loses
#: 97 of 100 games to a player who always takes the heuristic's best move. It takes that
#: best move itself only about one time in seven, and one move in eight is more than 3
#: points worse than the best: the blunders of an easy opponent.
EASY_BETA = 0.75


class EasyBot:
    """A weak but sensible player (level ``"easy"``).

    Deterministic for a given ``seed``: its choice depends only on the observation and the
    seed (the random draw is seeded with the seed and the ply), never on earlier calls.
    ``budget`` is accepted for the common interface and not needed: it answers at once.
    """

    level = "easy"

    def __init__(
        self,
        board: Board,
        chart: EpochChart,
        *,
        seed: int | None = None,
        budget: Budget | None = None,
        beta: float = EASY_BETA,
    ) -> None:
        self.board = board
        self.chart = chart
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.budget = budget if budget is not None else Budget()
        self.beta = beta
        self._tracker = BeliefTracker(board, chart)
        self._lock = threading.Lock()

    def choose(self, obs: Observation, *, cancel: threading.Event | None = None) -> Move:
        """A legal move for ``obs.viewer``, who is to move, with the village order best for
        its clan (R11). Raises :class:`.Cancelled` if ``cancel`` is set before it answers,
        ValueError if ``obs`` is not the observation of the player to move."""
        if cancel is not None and cancel.is_set():
            raise Cancelled
        if obs.viewer is None or obs.own_clan is None:
            raise ValueError("a bot needs its own player's observation, not the public view")
        if obs.end is not None:
            raise ValueError("the game is over: there is no move to choose")
        if obs.current_player != obs.viewer:
            raise ValueError(
                f"it is player {obs.current_player}'s turn, not this bot's ({obs.viewer})"
            )
        state = rebuild(obs, self.board, self.chart)
        moves = state.legal_moves()
        c = CLAN_INDEX[obs.own_clan]
        weights = softmax([v[c] for v in clan_values(state, moves)], self.beta)
        rng = random.Random(f"{self.seed}:{obs.ply}")
        move = rng.choices(moves, weights=weights)[0]
        move = move.with_order(best_order(state, move, obs.own_clan))
        if cancel is not None and cancel.is_set():
            raise Cancelled
        return move

    def guess(self, obs: Observation) -> dict[int, dict[str, float]]:
        """For every other player, the probability of each clan (:class:`.BeliefTracker`)."""
        with self._lock:
            return self._tracker.update(obs).marginals()
