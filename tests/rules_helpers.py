"""Shared helpers for the rule tests: small hand-made boards, positions, random games."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import pairwise

import pytest

from clans_pi.bots.random_mover import RandomMover
from clans_pi.rules import events as ev
from clans_pi.rules import record
from clans_pi.rules.board import Board, Territory, load_default_board
from clans_pi.rules.constants import CLANS
from clans_pi.rules.epochs import EpochChart, load_default_chart
from clans_pi.rules.errors import IllegalMoveError
from clans_pi.rules.moves import Move
from clans_pi.rules.setup import deal
from clans_pi.rules.state import GameState

BOARD = load_default_board()
CHART = load_default_chart()
PLAYERS = ("Ann", "Bob")
NAMES = ("Ann", "Bob", "Cid", "Dee")

# ------------------------------------------------------------------------------ helpers


def make_board(edges: Iterable[tuple[int, int]], terrain: Mapping[int, str] | None = None) -> Board:
    """A 60-territory board (12 regions of 5, ids 0..59) with exactly ``edges`` between the
    territories they name. Territories no edge names are chained together (Board needs every
    territory to have a neighbour); tests leave them empty. Terrain defaults to steppe."""
    neighbours: dict[int, set[int]] = {t: set() for t in range(60)}
    for a, b in edges:
        neighbours[a].add(b)
        neighbours[b].add(a)
    loose = [t for t in range(60) if not neighbours[t]]
    assert len(loose) != 1, "a single unused territory would have no neighbour"
    for a, b in pairwise(loose):
        neighbours[a].add(b)
        neighbours[b].add(a)
    terrain = terrain or {}
    return Board(
        [
            Territory(t, terrain.get(t, "steppe"), t // 5, tuple(sorted(neighbours[t])))
            for t in range(60)
        ]
    )


def position(
    edges: Iterable[tuple[int, int]],
    huts: Mapping[int, Mapping[str, int]],
    *,
    terrain: Mapping[int, str] | None = None,
    chips_taken: int = 0,
    players: tuple[str, ...] = PLAYERS,
    clans: tuple[str, ...] = ("red", "blue"),
    chart: EpochChart = CHART,
) -> GameState:
    """A hand-made position on :func:`make_board` (edges, terrains) with ``huts``."""
    board = make_board(edges, terrain)
    return GameState.from_position(board, chart, players, clans, huts, chips_taken=chips_taken)


def mixed(n: int, offset: int = 0) -> dict[str, int]:
    """``n`` huts spread round-robin over the clans (starting at clan ``offset``)."""
    return dict(Counter(CLANS[(i + offset) % 5] for i in range(n)))


# A pair of territories (58, 59) that no test shape touches: keeps a game from ending (R19).
SPARE_EDGE = (58, 59)
SPARE = {58: {"black": 1}, 59: {"black": 1}}
# Star: territory 0 with leaves 1, 2, 3, each a neighbour of 0 only.
STAR = [(0, 1), (0, 2), (0, 3), SPARE_EDGE]


def snapshot(state: GameState) -> dict:
    """Everything observable about ``state``, for comparing two states."""
    n = len(state.board.territories)
    return {
        "record": record.to_json(state) if state.initial_huts else None,
        "result": record.result(state),
        "huts": [state.hut_counts(t) for t in range(n)],
        "legal": state.legal_moves(),
        "actions": state.legal_actions(),
        "villages": state.villages,
        "observations": [state.observation(v).to_dict() for v in (None, *range(state.num_players))],
        "ply": state.ply,
        "player": state.current_player,
        "epoch": state.epoch,
        "chips_taken": state.chips_taken,
        "chips": state.chips,
        "points": state.clan_points,
        "end": state.end_reason,
        "live": state.live_mask,
        "removed": state.huts_removed(),
        "moves": state.moves,
    }


def random_game(seed: int, players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> GameState:
    return deal(BOARD, players, random.Random(seed))


def new_game(seed: int, num_players: int, clans: tuple[str, ...] | None = None) -> GameState:
    """A game dealt to the first ``num_players`` of NAMES with a seeded deal; ``clans``
    replaces the dealt secret clans (same huts, same turn order)."""
    state = deal(BOARD, NAMES[:num_players], random.Random(seed), CHART)
    if clans is None:
        return state
    huts = [CLANS[c] for c in state.initial_huts]
    return GameState(BOARD, CHART, state.players, clans, huts)


def midgame(seed: int, num_players: int, plies: int) -> GameState:
    """:func:`new_game` played on by the seeded random mover to ``plies`` moves (or the end)."""
    state = new_game(seed, num_players)
    mover = RandomMover(seed)
    while state.ply < plies and not state.is_over:
        state.play(mover.choose(state))
    return state


def play_randomly(state: GameState, seed: int) -> Iterable[tuple[Move, list[ev.Event]]]:
    """Play ``state`` to the end with the seeded random mover, yielding each move's events."""
    mover = RandomMover(seed)
    while not state.is_over:
        move = mover.choose(state)
        yield move, state.play(move)


def illegal(state: GameState, move: Move, message: str) -> None:
    """Assert ``move`` is rejected with ``message`` in the error, leaving ``state`` as it was."""
    before = snapshot(state)
    assert not state.is_legal(move)
    with pytest.raises(IllegalMoveError) as info:
        state.play(move)
    assert message in str(info.value)
    assert snapshot(state) == before
