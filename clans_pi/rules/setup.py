"""Set-up (R5-R7): dealing a new game from a random source (a given deal is checked by
:mod:`.deal_checks`)."""

from __future__ import annotations

import functools
import itertools
import operator
import random
from collections.abc import Callable, Sequence

from .board import Board
from .constants import CLANS
from .deal_checks import check_names
from .epochs import EpochChart, load_default_chart
from .state import GameState


def deal(
    board: Board,
    players: Sequence[str],
    rng: random.Random,
    chart: EpochChart | None = None,
    *,
    random_first: bool = True,
) -> GameState:
    """Deal a new game: huts per region at random (R5), a secret clan per player (R6),
    and a random first player (R7), keeping seat order.

    ``players`` are given in seat (clockwise) order; the returned game lists them in turn
    order, the first player first.
    """
    check_names(players)
    rand = rng.random
    perms = _PERMUTATIONS
    flat: list[int] = []
    for _ in board.regions:
        flat += perms[int(rand() * len(perms))]  # R5: a uniformly random permutation
    # flat[k] is the clan of the k-th territory in region order; put it in id order.
    initial = _region_order_getter(board)(flat)
    n = len(players)
    dealt = perms[int(rand() * len(perms))][:n]  # R6: n different clans, uniformly
    first = int(rand() * n) if random_first else 0  # R7
    order = (*players[first:], *players[:first])
    clans = dealt[first:] + dealt[:first]
    return GameState._trusted(board, chart or load_default_chart(), order, clans, initial)


_PERMUTATIONS = tuple(itertools.permutations(range(len(CLANS))))


@functools.cache
def _region_order_getter(board: Board) -> Callable[[list[int]], tuple[int, ...]]:
    position = {t: k for k, t in enumerate(t for members in board.regions for t in members)}
    return operator.itemgetter(*(position[t] for t in range(len(board.territories))))
