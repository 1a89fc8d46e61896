"""Engine API details beyond the rule tests: names, villages of a position, event shapes."""

from __future__ import annotations

import random

import pytest

from clans_pi.rules.board import load_default_board
from clans_pi.rules.epochs import load_default_chart
from clans_pi.rules.errors import SetupError
from clans_pi.rules.moves import Move
from clans_pi.rules.setup import deal
from clans_pi.rules.state import GameState


def test_r6_player_names_must_differ() -> None:
    with pytest.raises(SetupError, match="two players are called 'Ann'"):
        deal(load_default_board(), ["Ann", "Bob", "Ann"], random.Random(1))


def test_r13_a_position_keeps_its_earlier_villages_marked() -> None:
    board = load_default_board()
    lone = 0
    group = next(
        t
        for t in range(60)
        if t != lone
        and t not in board.neighbors(lone)
        and not set(board.neighbors(t)) & set(board.neighbors(lone))
    )
    other = board.neighbors(group)[0]
    state = GameState.from_position(
        board,
        load_default_chart(),
        ["a", "b"],
        ["red", "blue"],
        {lone: {"red": 2}, group: {"blue": 1}, other: {"green": 1}},
        chips_taken=3,
    )
    assert state.is_village(lone) and not state.is_village(group)
    assert state.legal_moves() == sorted([Move(group, other), Move(other, group)])
    state.play(Move(group, other))
    assert state.is_village(other) and state.is_village(lone)
    assert state.villages[0].chip == 4


def test_move_strings_and_actions_round_trip() -> None:
    move = Move(12, 13, (13, 7))
    assert str(move) == "12->13 [13,7]"
    assert Move(move.action >> 6, move.action & 63) == Move(12, 13)
    assert move.with_order(None) == Move(12, 13)
