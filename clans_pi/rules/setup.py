"""Set-up (R3, R5-R7): checking a given deal, and dealing a new game from a random source."""

from __future__ import annotations

import functools
import itertools
import operator
import random
from collections.abc import Callable, Mapping, Sequence

from .board import Board
from .constants import CLAN_INDEX, CLANS, MAX_PLAYERS, MIN_PLAYERS
from .epochs import EpochChart, load_default_chart
from .errors import SetupError
from .state import GameState


def check_setup(
    board: Board,
    players: Sequence[str],
    clans: Sequence[str],
    huts: Sequence[str] | Mapping[int, str],
) -> tuple[int, ...]:
    """Check players, their clans and the initial huts; return the clan index per territory.

    Raises :class:`SetupError` naming what is wrong and where.
    """
    check_players(players, clans)
    return _check_huts(board, huts)


def check_players(players: Sequence[str], clans: Sequence[str]) -> None:
    """Check the player names and their clans (R6); raise :class:`SetupError`."""
    _check_names(players)
    if isinstance(clans, str) or len(clans) != len(players):
        raise SetupError(f"clans: one clan per player ({len(players)}), not {len(clans)}")
    for i, clan in enumerate(clans):
        if not isinstance(clan, str) or clan not in CLAN_INDEX:
            raise SetupError(
                f"clans: player {i} has unknown clan {clan!r} (R3: {', '.join(CLANS)})"
            )
    if len(set(clans)) != len(clans):
        raise SetupError("clans: each player needs a different clan (R6)")


def _check_names(players: Sequence[str]) -> None:
    """Check the number of players (R6) and that each has a name of their own."""
    if isinstance(players, str) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SetupError(
            f"players: {MIN_PLAYERS} to {MAX_PLAYERS} players play (R6), not {len(players)}"
        )
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise SetupError(f"players: player {i} needs a name, not {name!r}")
        if name in players[:i]:
            raise SetupError(f"players: two players are called {name!r}; names must differ")


def _check_huts(board: Board, huts: Sequence[str] | Mapping[int, str]) -> tuple[int, ...]:
    n = len(board.territories)
    if isinstance(huts, Mapping):
        extra = sorted(set(huts) - set(range(n)), key=str)
        if extra:
            raise SetupError(f"huts: territory {extra[0]!r} is not on the board")
        missing = [t for t in range(n) if t not in huts]
        if missing:
            raise SetupError(f"huts: territory {missing[0]} has no hut (R5: one hut per territory)")
        by_territory = [huts[t] for t in range(n)]
    else:
        by_territory = list(huts)
        if len(by_territory) != n:
            raise SetupError(f"huts: {len(by_territory)} huts given; the board has {n} territories")
    for t, clan in enumerate(by_territory):
        if not isinstance(clan, str) or clan not in CLAN_INDEX:
            raise SetupError(
                f"huts: territory {t} has unknown clan {clan!r} (R3: {', '.join(CLANS)})"
            )
    for members in board.regions:
        seen: dict[str, int] = {}
        for t in members:
            clan = by_territory[t]
            if clan in seen:
                raise SetupError(
                    f"huts: region {board.territories[t].region} has two {clan} huts "
                    f"(territories {seen[clan]} and {t}); R5 puts one hut of each clan per region"
                )
            seen[clan] = t
    return tuple(CLAN_INDEX[c] for c in by_territory)


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
    _check_names(players)
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
