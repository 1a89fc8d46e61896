"""The compiled core's search against the Python one (:mod:`clans_pi.bots.ismcts`): over
1,000 seeded searches of 2-4 player positions, with Normal's and Hard's settings (plain
UCT; progressive widening over the heuristic's order, a worker's wider root), uniform and
belief-weighted determinisations, the same move, iterations, visits and mean rewards to
the last bit, the same village orders (R11), and the generator left in the same state;
and a search going on from a kept tree does the same on both."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace

import pytest

from clans_pi.bots import compiled_search, ismcts
from clans_pi.bots.base import Cancelled, assignments
from clans_pi.bots.ismcts import Settings, uniform_sampler, weighted_sampler
from clans_pi.bots.parallel import RootStats
from clans_pi.bots.search_bot import LEVEL_SETTINGS
from clans_pi.bots.tree import Tree
from clans_pi.compiled.library import python_path
from clans_pi.rules.constants import CLAN_INDEX
from clans_pi.rules.moves import Move
from tests.compiled_helpers import the_core
from tests.rules_helpers import midgame

HARD = LEVEL_SETTINGS["hard"].search
SETTINGS = (
    Settings(),  # Normal: plain UCT
    HARD,  # widening over the heuristic's order
    replace(HARD, root_breadth=3.0),  # a worker of three
    Settings(margin_weight=0.0, exploration=1.2),
    replace(HARD, max_nodes=15),  # the tree stops growing early
    Settings(max_nodes=5),
)
CHUNKS, SEARCHES = 8, 125


@pytest.fixture(scope="module")
def lib():
    return the_core()


def position(seed: int):
    return midgame(seed, 2 + seed % 3, seed % 53)


def job(state, seed: int):
    """The determinisations and clan weights a seat could search ``state`` with."""
    me = state.current_player
    hyps = [tuple(CLAN_INDEX[c] for c in h)
            for h in assignments(state.num_players, me, state.clan_of(me))]
    rng = random.Random(seed)
    if seed % 2:
        probs = [rng.random() ** 3 for _ in hyps]
        sampler = weighted_sampler(hyps, probs)
    else:
        probs = [1.0 / len(hyps)] * len(hyps)
        sampler = uniform_sampler(hyps)
    return sampler, ismcts.clan_weights(hyps, [q / sum(probs) for q in probs])


def both(lib, state, seed, settings, iterations, roots=(None, None)):
    sampler, weights = job(state, seed)
    python, compiled = random.Random(seed), random.Random(seed)
    with python_path():  # the heuristic's values in Python too
        a = ismcts.search(state, sampler, python, settings, iterations=iterations,
                          clan_weights=weights, root=roots[0])
    b = compiled_search.search(lib, state, sampler, compiled, settings,
                               iterations=iterations, clan_weights=weights, root=roots[1])
    return a, b, python, compiled


def assert_same(a, b, python, compiled, where):
    assert (b.move, b.iterations) == (a.move, a.iterations), where
    assert b.visits == a.visits, where
    assert b.values == a.values, where  # floats, bit for bit
    assert RootStats.of(b) == RootStats.of(a), where  # the tried children in their order
    assert compiled.getstate() == python.getstate(), where


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_seeded_searches_choose_and_count_alike(lib, chunk):
    compared = 0
    for seed in range(chunk * SEARCHES, (chunk + 1) * SEARCHES):
        state = position(seed)
        if state.is_over:
            continue
        settings = SETTINGS[seed % len(SETTINGS)]
        iterations = 20 + (seed * 37) % 100
        assert_same(*both(lib, state, seed, settings, iterations), (seed, settings))
        compared += 1
    assert compared >= 0.7 * SEARCHES  # the rest: positions after the end of their game


@pytest.mark.parametrize("seed", range(12))
def test_a_search_from_a_kept_tree_goes_on_alike(lib, seed):
    """Hard's tree kept over its move and the reply the search expected most (the Python
    tree and the core's followed down by :class:`~clans_pi.bots.tree.Tree`)."""
    state = midgame(200 + seed, 2 + seed % 3, 3 * seed)
    a, b, _, _ = both(lib, state, seed, HARD, 400)
    moves = [a.move]
    node = a.root.child(a.move)
    if node is not None and node.n:
        j = max(range(len(node.n)), key=node.n.__getitem__)
        code = node.actions[j]
        moves.append(Move(code >> 6 & 63, code & 63, node.orders.get(code)))
    trees = [Tree(), Tree()]
    for tree, result in zip(trees, (a, b), strict=True):
        tree.keep("game", tuple(state.moves), result.root)
    for move in moves:
        state.push(move, undo=False)
    assert not state.is_over
    roots = [tree.reuse("game", tuple(state.moves)) for tree in trees]
    assert (roots[0] is None) == (roots[1] is None)
    if roots[0] is not None:
        assert (roots[1].total, roots[1].n, roots[1].w) == (roots[0].total, roots[0].n,
                                                            roots[0].w)
    assert_same(*both(lib, state, seed, HARD, 300, roots), seed)


def test_a_tree_that_was_moved_on_from_cannot_be_read_or_followed(lib):
    state = position(7)
    _, b, _, _ = both(lib, state, 7, HARD, 300)
    root = b.root
    views = root.children
    assert any(v is not None for v in views)
    kept = root.child(b.move)
    assert root.child(b.move) is None  # its tree is gone but for kept
    with pytest.raises(RuntimeError):
        root.children  # noqa: B018
    view = next(v for v in views if v is not None)
    with pytest.raises(RuntimeError):
        view.children  # noqa: B018
    if kept is not None:
        assert isinstance(kept.children, list)


def test_a_cancelled_search_raises_and_a_deadline_is_kept(lib):
    state = position(9)
    sampler, weights = job(state, 9)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        compiled_search.search(lib, state, sampler, random.Random(1), HARD, iterations=10**6,
                               cancel=cancel, clan_weights=weights)
    # A deadline passed already: one iteration (as the Python search does).
    past = compiled_search.search(lib, state, sampler, random.Random(1), HARD,
                                  deadline=time.monotonic() - 1.0, clan_weights=weights)
    assert past.iterations == 1
    # A deadline ahead: it searches until then, not less.
    deadline = time.monotonic() + 0.05
    ahead = compiled_search.search(lib, state, sampler, random.Random(1), HARD,
                                   deadline=deadline, clan_weights=weights)
    assert time.monotonic() >= deadline and ahead.iterations > 1


def count_nodes(node) -> int:
    return 1 + sum(count_nodes(c) for c in node.children if c is not None)


@pytest.mark.parametrize("settings", [Settings(max_nodes=40), replace(HARD, max_nodes=40)],
                         ids=["normal", "hard"])
def test_a_search_makes_at_most_its_nodes_and_goes_on_searching(lib, settings):
    """Settings.max_nodes: the tree stops growing (a Pi's memory), the iterations go on."""
    state = position(13)
    a, b, _, _ = both(lib, state, 13, settings, 3000)
    assert a.iterations == b.iterations == 3000 and b.visits == a.visits
    assert count_nodes(a.root) == count_nodes(b.root) == 41  # the root and 40 made
    grown = ismcts.search(state, job(state, 13)[0], random.Random(13),
                          replace(settings, max_nodes=10**6), iterations=3000,
                          clan_weights=job(state, 13)[1])
    assert count_nodes(grown.root) > 41


def test_a_search_cancelled_while_it_runs_stops_and_frees_its_tree(lib, monkeypatch):
    """Cancelled from another thread mid-search (an undo): Cancelled within a chunk of
    iterations, the tree freed (the kept one included); so on running out of memory."""
    state = position(9)
    sampler, weights = job(state, 9)
    freed = []
    free = lib.cc_tree_free
    monkeypatch.setattr(lib, "cc_tree_free", lambda ptr, keep: (freed.append(ptr),
                                                                 free(ptr, keep)))
    kept = compiled_search.search(lib, state, sampler, random.Random(1), HARD,
                                  iterations=300, clan_weights=weights).root
    cancel = threading.Event()
    threading.Timer(0.05, cancel.set).start()
    with pytest.raises(Cancelled):
        compiled_search.search(lib, state, sampler, random.Random(1), HARD,
                               iterations=10**9, cancel=cancel, clan_weights=weights,
                               root=kept)
    assert freed == [kept.address]  # the kept tree became the search's root, then freed
    freed.clear()
    monkeypatch.setattr(lib, "cc_search_run", lambda *args: -1)
    with pytest.raises(MemoryError):
        compiled_search.search(lib, state, sampler, random.Random(1), HARD, iterations=10,
                               clan_weights=weights)
    assert len(freed) == 1
