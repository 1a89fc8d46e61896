"""The compiled core's rules, random numbers and heuristic against the Python ones, over
thousands of seeded games: the same legal moves (R8, R9), the same state after every move
(villages R10-R11, strife R12, hostile terrain R14, epochs R15-R17, the end R18-R19), the
same playouts, the same floats from the heuristic. (Every rules test also runs on both:
tests/compiled_helpers.py.)"""

from __future__ import annotations

import random
from ctypes import c_double, c_int

import pytest

from clans_pi.bots import heuristic
from clans_pi.bots.ismcts import heuristic_order
from clans_pi.compiled.library import python_path
from clans_pi.compiled.state import CoreRandom, CoreState, tables
from clans_pi.rules.board import load_default_board
from clans_pi.rules.epochs import load_default_chart
from clans_pi.rules.moves import Move
from clans_pi.rules.setup import deal
from clans_pi.rules.state import GameState
from tests.compiled_helpers import the_core

BOARD, CHART = load_default_board(), load_default_chart()
NAMES = ("Ann", "Bob", "Cid", "Dee")
#: Seeded games played move by move on both paths: 2,000 in all, in chunks for the workers.
CHUNKS, GAMES = 8, 250


@pytest.fixture(scope="module")
def lib():
    return the_core()


def dealt(seed: int, players: int | None = None) -> tuple[GameState, random.Random]:
    rng = random.Random(seed)
    return deal(BOARD, NAMES[: players or 2 + seed % 3], rng, CHART), rng


def advanced(seed: int, plies: int) -> tuple[GameState, random.Random]:
    """:func:`dealt`, played on by random moves for ``plies`` moves or to the end."""
    state, rng = dealt(seed)
    for _ in range(plies):
        if state.is_over:
            break
        state.push_action(state.random_legal_action(rng.random), undo=False)
    return state, rng


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_games_move_by_move_have_the_same_moves_and_states(lib, chunk):
    """Random games with random village orders (R11): after every move the same tables,
    villages and legal moves; both end the same way (R18 or R19) with the same scores."""
    ends = set()
    for seed in range(chunk * GAMES, (chunk + 1) * GAMES):
        state, rng = dealt(seed)
        cstate = CoreState.of(lib, state)
        while not state.is_over:
            actions = state.legal_actions()
            assert cstate.legal_actions() == actions, (seed, state.ply)
            action = actions[int(rng.random() * len(actions))]
            orders = state.village_orders(Move(action >> 6, action & 63))
            order = orders[int(rng.random() * len(orders))]
            state.push_action(action, order, undo=False)
            cstate.push_action(action, order)
            assert cstate.tables() == tables(state), (seed, state.ply)
        assert cstate.legal_actions() == []
        ends.add(state.end_reason)
    assert ends == {"twelfth_village", "no_moves"}  # both ends came up (R18, R19)


@pytest.mark.parametrize("chunk", range(4))
def test_playouts_draw_the_same_numbers_and_end_the_same(lib, chunk):
    """``GameState.playout`` and the core's from 250 positions of each chunk: the same
    final tables and villages, and the generator left in the same state."""
    for seed in range(chunk * 250, (chunk + 1) * 250):
        state, _ = advanced(seed, seed % 50)
        start = len(state.villages)
        cstate = CoreState.of(lib, state)
        python, compiled = random.Random(seed + 1), random.Random(seed + 1)
        crandom = CoreRandom(lib, compiled)
        state.playout(python.random)
        cstate.playout(crandom)
        crandom.give(compiled)
        assert cstate.tables() == tables(state, start), seed
        assert compiled.getstate() == python.getstate(), seed


def test_random_legal_actions_are_the_same_draws(lib):
    for seed in range(300):
        state, _ = advanced(seed, seed % 45)
        if state.is_over:
            continue
        cstate = CoreState.of(lib, state)
        python, compiled = random.Random(seed), random.Random(seed)
        crandom = CoreRandom(lib, compiled)
        for _ in range(20):
            assert cstate.random_legal_action(crandom) == state.random_legal_action(
                python.random)


def test_the_core_draws_cpythons_random_numbers(lib):
    """random() from any state of a ``random.Random``, across the generator's refills."""
    for seed, drawn in ((0, 0), (1, 311), (2**40, 623), ("a seed", 5)):
        python = random.Random(seed)
        for _ in range(drawn):
            python.random()
        compiled = CoreRandom(lib, python)
        assert [compiled.random() for _ in range(2000)] == [python.random()
                                                            for _ in range(2000)]


def test_the_heuristic_gives_the_same_floats_and_order(lib):
    """clan_values for every legal move of 200 positions, bit for bit, and the order of a
    node's children for a mover's clan weights (the search's ``heuristic_order``)."""
    compared = 0
    for seed in range(200):
        state, rng = advanced(seed, seed % 55)
        if state.is_over:
            continue
        cstate = CoreState.of(lib, state)
        moves = state.legal_moves()
        out = (c_double * (5 * len(moves)))()
        assert lib.cc_clan_values(cstate.buf, cstate.board.buf,
                                  (c_int * len(moves))(*[m.action for m in moves]),
                                  len(moves), out) == 0
        python = heuristic.python_clan_values(state, moves)
        for i, (move, values) in enumerate(zip(moves, python, strict=True)):
            assert tuple(out[5 * i : 5 * i + 5]) == values, (seed, move)
            compared += 1
        weights = [rng.random() * (c % 3 != 0) for c in range(5)]
        codes = [m.action for m in moves]
        rng.shuffle(codes)
        array = (c_int * len(codes))(*codes)
        assert lib.cc_heuristic_order(cstate.buf, cstate.board.buf, array, len(codes),
                                      (c_double * 5)(*weights)) == 0
        with python_path():  # the Python heuristic's own order
            assert list(array) == heuristic_order(state, codes, weights), seed
    assert compared > 5000


def test_the_twin_of_the_rules_tests_finds_a_core_that_differs(monkeypatch):
    """tests/compiled_helpers.twin compares something, and fails on a difference."""
    from tests.compiled_helpers import twin

    the_core()  # skipped where the tests run on the Python path alone

    with twin(monkeypatch) as twins:
        state, rng = dealt(5)
        state.play(state.legal_moves()[0])
        state.playout(rng.random)
        assert twins is not None and (twins.moves, twins.playouts) == (1, 1)
    with twin(monkeypatch) as twins:
        monkeypatch.setattr(CoreState, "push_action", lambda self, action, order=None: None)
        state, _ = dealt(5)
        with pytest.raises(AssertionError, match="the core differs"):
            state.play(state.legal_moves()[0])


def test_the_core_refuses_what_it_cannot_hold(lib):
    from clans_pi.compiled.state import compiled_clan_values

    state, _ = dealt(3)
    with pytest.raises(ValueError, match="not between territories"):
        compiled_clan_values(lib, state, [Move(0, 64)])
