"""One tree on several processes (clans_pi/bots/tree_parallel.py): every iteration is backed
up exactly once, a leaf reaches the helper with its village order (R11), the helpers order
nodes as the heuristic does, and an iteration budget gives the same search on helper
processes as on one (so a killed helper or a cancel costs the search nothing but time).

The helpers are real processes (``spawn``) in the pool tests; no test measures time.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clans_pi.bots import Budget, Cancelled, make_bot
from clans_pi.bots.heuristic import clan_values
from clans_pi.bots.ismcts import Settings, _Node, actions_with_orders, uniform_sampler
from clans_pi.bots.parallel import OneCorePool, SearchPool
from clans_pi.bots.search_bot import SearchBot
from clans_pi.bots.tree_parallel import (
    HAS_ORDER,
    InlineFarm,
    leaf_code,
    push_code,
    search,
)
from clans_pi.rules.constants import CLANS
from clans_pi.rules.moves import Move
from tests.rules_helpers import BOARD, CHART, midgame

HARD = Settings(widening=0.5, ordered=True)
WEIGHTS2 = [[0.2] * len(CLANS)] * 2
PAIRS = [(a, b) for a in range(len(CLANS)) for b in range(len(CLANS)) if a != b]


def nodes(root: _Node):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in node.children if c is not None)


def inline_search(state, helpers: int, iterations: int, *, seed: int = 1, batch: int = 16,
                  settings_: Settings = HARD):
    farm = InlineFarm(helpers)
    farm.begin(None, state, settings_, WEIGHTS2)
    return search(state, uniform_sampler(PAIRS), random.Random(seed), settings_, farm,
                  iterations=iterations, clan_weights=WEIGHTS2, batch=batch)


# ------------------------------------------------------------------ the search itself


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 400), st.integers(1, 40), st.integers(0, 3), st.integers(0, 30))
def test_every_iteration_is_backed_up_exactly_once(iterations, batch, helpers, plies):
    state = midgame(7, 2, plies)
    result = inline_search(state, helpers, iterations, batch=batch)
    root = result.root
    assert result.iterations == iterations == root.total == sum(root.n)
    for node in nodes(root):
        # Every visit counted on the way down came back with its reward (0 to 1 each).
        assert node.total == sum(node.n)
        assert all(0.0 <= w <= n for n, w in zip(node.n, node.w, strict=True))
    assert sum(root.w) > 0  # the rewards did come back
    assert Move(result.move.src, result.move.dst) in state.legal_moves()  # R8, R9


def test_the_visits_in_flight_spread_the_walks_out():
    """A visit counts on the way down and its reward only when it comes back, so walks whose
    rewards are still out see them as losses: the better child is not chosen every time."""
    from clans_pi.bots.ismcts import walker

    state = midgame(8, 2, 10)
    rng = random.Random(0)
    root = _Node(state.current_player, state, rng, True)
    root.actions = root.actions[:2]  # two children, both tried: UCT chooses
    root.n, root.w, root.children, root.total = [10, 10], [6.0, 5.0], [None, None], 20
    walk = walker(root, 2, rng, Settings(), lambda *_: None)
    chosen = []
    for _ in range(6):
        path: list = []
        walk(state.copy(stack=False), path)
        chosen.append(path[0][1])
    assert chosen[0] == 0  # the better mean first
    assert 1 in chosen  # then the other, while the first's rewards are out
    assert root.n == [10 + chosen.count(0), 10 + chosen.count(1)] and root.total == 26
    assert root.w == [6.0, 5.0]  # no reward has come back


def test_r11_a_leaf_reaches_the_helper_with_its_village_order():
    checked = 0
    for seed in range(60):
        state = midgame(seed, 2, 30)
        if state.is_over:
            continue
        _, orders = actions_with_orders(state)
        node = _Node(state.current_player, state, random.Random(0), True)
        for i, code in enumerate(node.actions):
            sent = leaf_code(node, i)
            assert bool(sent & HAS_ORDER) == (code in orders)
            here, there = state.copy(stack=False), state.copy(stack=False)
            here.push_action(code & 4095, node.orders.get(code), undo=False)
            push_code(there, sent)
            assert here.villages == there.villages and here.chips == there.chips
            assert here.moves[-1] == there.moves[-1]
            checked += code in orders
        if checked >= 6:
            break
    assert checked >= 2, "no move with a choice of village order in 60 games"


def test_the_helpers_order_a_node_as_the_heuristic_does():
    state = midgame(9, 2, 6)
    root = inline_search(state, 2, 3000).root
    checked = 0
    for i, child in enumerate(root.children):
        if child is None or not (child.sorted and child.full) or len(child.actions) < 4:
            continue
        position = state.copy(stack=False)
        push_code(position, leaf_code(root, i))
        untried = child.actions[len(child.n):]
        values = dict(zip([c & 4095 for c in untried],
                          clan_values(position, [Move(c >> 6 & 63, c & 63) for c in untried]),
                          strict=False))
        weights = WEIGHTS2[child.player]
        scores = [sum(q * values[c & 4095][k] for k, q in enumerate(weights)) for c in untried]
        assert scores == sorted(scores, reverse=True)
        codes, _ = actions_with_orders(position)
        assert sorted(child.actions) == sorted(codes)  # every child, once
        checked += 1
    assert checked >= 2


class Replaying(InlineFarm):
    """Every batch sent as to a helper (its leaves as ints, replayed from the root)."""

    def local(self) -> bool:
        return False


@pytest.mark.parametrize("players,plies", [(2, 0), (3, 14), (4, 28)])
def test_r11_a_batch_replayed_from_its_ints_gets_the_answer_of_its_kept_positions(
        players, plies):
    state = midgame(21, players, plies)
    weights = [[0.2] * len(CLANS)] * players
    hyps = [tuple((i + k) % len(CLANS) for k in range(players)) for i in range(len(CLANS))]
    results = []
    for farm in (InlineFarm(2), Replaying(2)):
        farm.begin(None, state, HARD, weights)
        results.append(search(state, uniform_sampler(hyps), random.Random(5), HARD, farm,
                              iterations=1200, clan_weights=weights))
    kept, replayed = results
    assert kept.visits == replayed.visits and kept.move == replayed.move
    assert [n.n for n in nodes(kept.root)] == [n.n for n in nodes(replayed.root)]


# ------------------------------------------------------- the same search on processes


@pytest.fixture(scope="module")
def pool3():
    with SearchPool(3, BOARD, CHART) as p:
        assert p.ready(60), "the workers never started"
        yield p


def _bot(pool, iterations: int = 1500, seed: int = 3):
    return make_bot("hard", BOARD, CHART, seed=seed, budget=Budget(iterations=iterations),
                    pool=pool)


def test_helpers_and_one_core_search_the_same_tree(pool3):
    assert pool3.helpers == 2  # both helpers started and told the tree's worker so
    for seed, players, plies in ((11, 2, 4), (12, 3, 15), (13, 4, 30)):
        state = midgame(seed, players, plies)
        if state.is_over:
            continue
        obs = state.observation(state.current_player)
        on_processes, on_one_core = _bot(pool3), _bot(OneCorePool(3, BOARD, CHART))
        move = on_processes.choose(obs)
        assert move == on_one_core.choose(obs)
        assert on_processes.last.result.visits == on_one_core.last.result.visits
        assert sum(on_processes.last.result.visits.values()) == 1500


def test_a_helper_killed_mid_search_costs_the_search_nothing_but_time():
    state = midgame(14, 2, 8)
    obs = state.observation(state.current_player)
    expected = _bot(OneCorePool(3, BOARD, CHART), iterations=6000)
    expected.choose(obs)
    with SearchPool(3, BOARD, CHART) as p:
        assert p.ready(60)
        bot = _bot(p, iterations=6000)
        out: list = []
        thread = threading.Thread(target=lambda: out.append(bot.choose(obs)), daemon=True)
        thread.start()
        time.sleep(0.5)  # searching
        os.kill(p.pids[1], signal.SIGKILL)  # a helper (the tree's worker is the first)
        thread.join(120)
        assert out and out[0] == expected.last.result.move
        assert bot.last.result.visits == expected.last.result.visits
        assert p.usable  # the tree's worker goes on with the helper it has left


def test_a_cancelled_search_leaves_no_answer_behind(pool3):
    """After a cancel the helpers' batches in flight are drained: the next search gets its
    own answers and searches exactly what it would have on one core."""
    state = midgame(15, 3, 9)
    obs = state.observation(state.current_player)
    endless = SearchBot(BOARD, CHART, level="hard", seed=2, budget=Budget(iterations=10**9),
                        pool=pool3)
    cancel = threading.Event()
    out: list = []

    def run() -> None:
        try:
            endless.choose(obs, cancel=cancel)
        except Cancelled as exc:
            out.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    time.sleep(0.5)
    cancel.set()
    thread.join(60)
    assert out and isinstance(out[0], Cancelled)
    after, alone = _bot(pool3, iterations=700), _bot(OneCorePool(3, BOARD, CHART), 700)
    assert after.choose(obs) == alone.choose(obs)
    assert after.last.result.visits == alone.last.result.visits
