"""The engine API: undo, copies, the two ways to apply a move, actions, sampling, and
details beyond the rule tests (names, villages of a position, move strings).

Helpers are in tests/rules_helpers.py.
"""

from __future__ import annotations

import doctest
import json
import random
import re
from collections import Counter

import pytest

import clans_pi.rules
from clans_pi.bots.random_mover import RandomMover
from clans_pi.rules import (
    GameState,
    IllegalMoveError,
    Move,
    SetupError,
    VillageFounded,
    VillageUnscored,
    deal,
    load_default_board,
    load_default_chart,
    replay,
    to_json,
    to_record,
)
from tests.rules_helpers import (
    BOARD,
    CHART,
    play_randomly,
    random_game,
    snapshot,
)

# Every move and playout here is checked against the compiled core too.
pytestmark = pytest.mark.usefixtures("compiled_twin")

# ------------------------------------------------------------------------ the public face


def test_the_example_in_the_rules_docstring_runs():
    """clans_pi.rules' docstring deals a game, lists and plays a move, shows a player's view,
    replays a record and undoes: it stays true (run as a doctest)."""
    results = doctest.testmod(clans_pi.rules, optionflags=doctest.ELLIPSIS)
    assert results.failed == 0
    assert results.attempted >= 10, "the example went missing"


def test_the_public_face_holds_what_a_program_needs():
    names = set(clans_pi.rules.__all__)
    assert {"GameState", "Move", "Board", "EpochChart", "Observation", "deal", "replay",
            "to_record", "load_default_board", "load_default_chart", "ClansError",
            "IllegalMoveError"} <= names
    star: dict[str, object] = {}
    exec("from clans_pi.rules import *", star)  # fails on a listed name that is not there
    assert set(star) - {"__builtins__"} == names
    assert len(names) == len(clans_pi.rules.__all__), "a name listed twice"
    assert star["GameState"] is GameState and star["Move"] is Move


# ------------------------------------------------------------------------ engine API


@pytest.mark.slow
def test_api_pop_restores_the_exact_previous_state():
    for seed in range(4):
        state = random_game(seed)
        start = snapshot(state)
        mover = RandomMover(seed)
        while not state.is_over:
            move = mover.choose(state)
            before = snapshot(state)
            state.play(move)
            after = snapshot(state)
            assert state.pop() == move
            assert snapshot(state) == before
            state.check_invariants()
            state.play(move)
            assert snapshot(state) == after
        while state.ply:
            state.pop()
        assert snapshot(state) == start
        with pytest.raises(IndexError):
            state.pop()


def test_api_copy_is_independent():
    state = random_game(21)
    for _ in zip(play_randomly(state, 21), range(10), strict=False):
        pass
    before = snapshot(state)
    other = state.copy()
    for _ in play_randomly(other, 5):
        pass
    assert snapshot(state) == before
    while other.ply > state.ply:
        other.pop()
    assert snapshot(other) == before
    assert other.pop() == state.moves[-1]
    assert snapshot(state) == before
    fresh = state.copy(stack=False)
    assert snapshot(fresh) == before
    with pytest.raises(IndexError):
        fresh.pop()


def test_api_copy_sets_every_slot_equal_to_the_original():
    # copy() names the fields it copies one by one (faster than a loop over names): a new
    # slot it forgets would be unset, and one it shares by mistake would be the same list.
    state = random_game(22)
    for _ in zip(play_randomly(state, 22), range(12), strict=False):
        pass
    shared = {"board", "chart", "players", "initial_huts", "_clans", "_nbr_ids", "_prior",
              "_terrain", "_nalive", "_taken", "_end", "_owned"}  # fmt: skip
    for stack in (True, False):
        other = state.copy(stack=stack)
        for name in GameState.__slots__:
            mine, theirs = getattr(state, name), getattr(other, name)
            assert theirs == (mine if stack or name != "_stack" else []), name
            assert (theirs is mine) == (name in shared), name


def test_api_copy_survives_push_without_undo_after_pop():
    # Regression: copy() shares the undo snapshots; push(undo=False) after pop() used to
    # change the snapshot lists in place, corrupting the copy's undo.
    state = random_game(1)
    before = snapshot(state)
    state.push(state.legal_moves()[0])
    other = state.copy()
    state.pop()
    state.push(state.legal_moves()[-1], undo=False)
    other.pop()
    assert snapshot(other) == before


def test_api_copy_survives_founding_push_without_undo():
    # Regression: a founding push(undo=False) used to add its chip to the chips list that
    # the copy's undo snapshot holds.
    state = random_game(1)
    rng = random.Random(5)
    while True:  # a non-founding move, after which some move founds a village
        move = state.random_legal_move(rng.random)
        if not state.founds(move):
            state.push(move)
            founding = [m for m in state.legal_moves() if state.founds(m)]
            if founding:
                break
    other = state.copy()
    reference = state.copy()
    reference.pop()
    expected = snapshot(reference)  # taken now: reference shares the same snapshot lists
    state.push(founding[0], undo=False)
    other.pop()
    assert snapshot(other) == expected


def test_api_push_and_play_give_the_same_state():
    for seed in range(4):
        played = random_game(seed)
        pushed = random_game(seed)
        by_action = random_game(seed)
        fast = random_game(seed)
        for move, _ in play_randomly(played, seed):
            pushed.push(move)
            by_action.push_action(move.action, move.order)
            fast.push(move, undo=False)
            assert snapshot(pushed) == snapshot(played)
        assert snapshot(by_action) == snapshot(played)
        assert snapshot(fast) == snapshot(played)
        assert played.is_over and fast.is_over


def test_api_legal_actions_agree_with_legal_moves():
    for seed in range(4):
        state = random_game(seed)
        for _ in play_randomly(state, seed):
            moves = state.legal_moves()
            assert [m.action for m in moves] == state.legal_actions()
            assert state.legal_move_count() == len(moves)
            assert moves == sorted(moves)
            for src in range(60):
                assert state.legal_targets(src) == tuple(m.dst for m in moves if m.src == src)
            legal = set(moves)
            for src, dst in zip(*BOARD.edges, strict=True):
                assert state.is_legal(Move(src, dst)) == (Move(src, dst) in legal)
        assert state.legal_actions() == [] and state.legal_move_count() == 0


def test_api_random_legal_move_only_returns_legal_moves():
    rng = random.Random(3)
    for seed in range(4):
        state = random_game(seed)
        for _ in play_randomly(state, seed):
            if state.is_over:
                break
            legal = set(state.legal_moves())
            for _ in range(5):
                assert state.random_legal_move(rng.random) in legal
    state = random_game(9)
    for _ in zip(play_randomly(state, 9), range(30), strict=False):
        pass
    legal = set(state.legal_moves())
    drawn = Counter(state.random_legal_move(rng.random) for _ in range(40 * len(legal)))
    assert set(drawn) == legal  # every legal move comes up


def test_api_founds_equals_the_villages_actually_founded():
    for seed in range(3):
        state = random_game(seed)
        while not state.is_over:
            for m in state.legal_moves():
                events = state.play(m)
                founded = [
                    e.territory
                    for e in events
                    if isinstance(e, VillageFounded | VillageUnscored)
                ]
                state.pop()
                assert tuple(sorted(founded)) == state.founds(m), m
            state.play(RandomMover(seed + state.ply).choose(state))


def test_api_random_mover_plays_legal_whole_games():
    for seed in range(20):
        state = random_game(seed, players=("A", "B", "C", "D")[: 2 + seed % 3])
        RandomMover(seed).play_game(state)
        assert state.end_reason in ("twelfth_village", "no_moves")
        state.check_invariants()
        replayed = replay(to_record(state), BOARD, CHART)
        assert snapshot(replayed) == snapshot(state)
        assert json.loads(json.dumps(to_json(state))) == to_json(state)


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


@pytest.mark.parametrize("order", [("x", 1), 5, (True,)])
def test_r11_a_malformed_order_is_an_illegal_move_not_a_crash(order: object) -> None:
    state = deal(load_default_board(), ["a", "b"], random.Random(3))
    move = state.legal_moves()[0]
    with pytest.raises(IllegalMoveError, match=r"village order .* must list the villages"):
        state.play(Move(move.src, move.dst, order))  # type: ignore[arg-type]


@pytest.mark.parametrize("key", [" +0", "07", "٣", "-1", "1.0"])
def test_record_hut_keys_must_be_plain_territory_ids(key: str) -> None:
    from clans_pi.rules.errors import RecordError

    huts = {str(t): "red" for t in range(1, 60)}
    huts[key] = "red"
    data = {"format": "clans-record/1", "players": ["a", "b"], "clans": ["red", "blue"],
            "huts": huts, "moves": []}  # fmt: skip
    with pytest.raises(RecordError, match=re.escape(f"huts: {key!r} is not a territory id")):
        replay(data, load_default_board(), load_default_chart())


def test_replaying_a_record_without_events_or_undo_reaches_the_same_game():
    """record.replay checks every move (replay_move) without building events, and with
    undo=False keeps no undo stack: the same finished game either way (R8-R21)."""
    from clans_pi.rules.board import load_default_board
    from clans_pi.rules.epochs import load_default_chart
    from clans_pi.rules.errors import IllegalMoveError
    from clans_pi.rules.record import replay, to_record
    from clans_pi.rules.setup import deal

    board, chart = load_default_board(), load_default_chart()
    for seed in range(5):
        rng = random.Random(seed)
        state = deal(board, ["A", "B", "C"], rng, chart)
        while not state.is_over:
            state.play(state.random_legal_move(rng.random))
        record = to_record(state)
        for undo in (True, False):
            again = replay(record, board, chart, undo=undo)
            assert again.observation(0) == state.observation(0)
            assert again.scores() == state.scores() and again.villages == state.villages
        with pytest.raises(IndexError):
            replay(record, board, chart, undo=False).pop()
    fresh = deal(board, ["A", "B"], random.Random(1), chart)
    before = fresh.observation(None)
    with pytest.raises(IllegalMoveError):
        fresh.replay_move(clans_pi.rules.Move(0, 0))
    assert fresh.observation(None) == before
