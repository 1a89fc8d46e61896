"""Checks of a given deal (R3, R5, R6): the players and their names, their clans, the first
huts. :class:`~.state.GameState` runs them on a deal it is given; :func:`~.setup.deal`,
which makes its own deal, checks only the players' names.

They import nothing of the game's state, so the state and the deal can both use them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .board import Board
from .constants import CLAN_INDEX, CLANS, MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS
from .errors import SetupError


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
    check_names(players)
    if isinstance(clans, str) or len(clans) != len(players):
        raise SetupError(f"clans: one clan per player ({len(players)}), not {len(clans)}")
    for i, clan in enumerate(clans):
        if not isinstance(clan, str) or clan not in CLAN_INDEX:
            raise SetupError(
                f"clans: player {i} has unknown clan {clan!r} (R3: {', '.join(CLANS)})"
            )
    if len(set(clans)) != len(clans):
        raise SetupError("clans: each player needs a different clan (R6)")


def check_names(players: Sequence[str]) -> None:
    """Check the number of players (R6) and that each has a name of their own, at most
    :data:`MAX_NAME_LENGTH` code points long (the error never repeats a long name)."""
    if isinstance(players, str) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SetupError(
            f"players: {MIN_PLAYERS} to {MAX_PLAYERS} players play (R6), not {len(players)}"
        )
    for i, name in enumerate(players):
        if not isinstance(name, str):
            raise SetupError(f"players: player {i} needs a name, not a {type(name).__name__}")
        if len(name) > MAX_NAME_LENGTH:
            raise SetupError(f"players: player {i}'s name is {len(name)} characters long; "
                             f"a name has at most {MAX_NAME_LENGTH}")
        if not name.strip():
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
