"""Searching on several processes (clans_pi/bots/parallel.py): a fixed iteration budget is
shared out and every iteration counts in the merged root, the move and its village order
are legal (R8, R9, R11), a cancel stops every worker, a worker that dies costs a move
nothing, and no worker process outlives its pool or its game.

The workers are real processes (``spawn``); one pool serves most tests. No test measures
time: waits are generous bounds for a shared machine, not speed targets.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clans_pi.bots import Budget, Cancelled, make_bot
from clans_pi.bots.ismcts import Settings
from clans_pi.bots.parallel import (
    Job,
    PoolBroken,
    RootStats,
    SearchPool,
    auto_workers,
    merge,
    run_job,
    split,
)
from clans_pi.bots.search_bot import LEVEL_SETTINGS, SearchBot
from clans_pi.rules.moves import Move
from tests.rules_helpers import BOARD, CHART, midgame

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def pool():
    with SearchPool(2, BOARD, CHART) as p:
        assert p.ready(60), "the workers never started"
        yield p


def gone(pid: int) -> bool:
    """The process has ended (a zombie not yet reaped counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def wait_gone(pids: list[int], timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(gone(p) for p in pids):
            return True
        time.sleep(0.05)
    return all(gone(p) for p in pids)


# ----------------------------------------------------------------------- sharing out


@given(st.integers(0, 10**6), st.integers(1, 16))
def test_an_iteration_budget_is_shared_out_whole_and_evenly(iterations, workers):
    shares = split(iterations, workers)
    assert len(shares) == workers and sum(shares) == iterations
    assert max(shares) - min(shares) <= 1


def test_auto_uses_every_core_but_one():
    assert [auto_workers(n) for n in (1, 2, 4, 8)] == [1, 1, 3, 7]
    assert auto_workers() >= 1


def test_merging_sums_each_moves_visits_and_rewards_and_picks_the_most_visited():
    a = RootStats(codes=(1 << 6 | 2, 3 << 6 | 4), n=(5, 3), w=(2.0, 2.5), orders={},
                  iterations=8)
    b = RootStats(codes=(3 << 6 | 4, 1 << 12 | 5 << 6 | 6), n=(4, 2), w=(1.0, 2.0),
                  orders={1 << 12 | 5 << 6 | 6: (7, 8)}, iterations=6)
    result = merge([a, b])
    assert result.iterations == 14
    assert result.visits == {Move(1, 2): 5, Move(3, 4): 7, Move(5, 6, (7, 8)): 2}
    assert result.move == Move(3, 4)
    # Equal visits: the move with more reward.
    c = RootStats(codes=(1 << 6 | 2,), n=(2,), w=(1.5,), orders={}, iterations=2)
    assert merge([a, c]).move == Move(1, 2)  # 7 visits against 3


# ------------------------------------------------------------------- searching


@pytest.mark.parametrize("level,num_players,plies", [
    ("hard", 2, 6), ("normal", 3, 11), ("hard", 4, 20),
])
def test_r8_r9_r11_a_split_budget_counts_every_iteration_and_gives_a_legal_move(
        pool, level, num_players, plies):
    state = midgame(5 + plies, num_players, plies)
    obs = state.observation(state.current_player)
    bot = make_bot(level, BOARD, CHART, seed=3, budget=Budget(iterations=301), pool=pool)
    move = bot.choose(obs)
    assert bot.last is not None and bot.last.iterations == 301
    assert sum(bot.last.result.visits.values()) == 301  # both workers' roots, merged
    assert Move(move.src, move.dst) in obs.legal_moves
    orders = state.village_orders(Move(move.src, move.dst))
    assert move.order in orders  # None when it founds fewer than two villages
    state.play(move)  # checked by the engine


def test_r11_the_merged_root_keeps_each_moves_village_order(pool):
    # A position where some move founds two or more villages: the search chooses the order.
    for seed in range(40):
        state = midgame(seed, 2, 30)
        if state.is_over:
            continue
        if any(len(state.village_orders(m)) > 1 for m in state.legal_moves()):
            break
    else:
        pytest.skip("no position with a choice of village order in 40 games")
    obs = state.observation(state.current_player)
    bot = make_bot("normal", BOARD, CHART, seed=1, budget=Budget(iterations=800), pool=pool)
    bot.choose(obs)
    visits = bot.last.result.visits
    ordered = [m for m in visits if m.order is not None]
    assert ordered, "no move with a village order was tried"
    for m in visits:
        assert m.order in state.village_orders(Move(m.src, m.dst))


def test_the_same_seed_and_budget_give_the_same_move_on_the_pool(pool):
    state = midgame(12, 3, 9)
    obs = state.observation(state.current_player)
    moves = {make_bot("hard", BOARD, CHART, seed=9, budget=Budget(iterations=200),
                      pool=pool).choose(obs) for _ in range(2)}
    assert len(moves) == 1


def test_a_seconds_budget_searches_on_every_worker(pool):
    state = midgame(3, 2, 4)
    obs = state.observation(state.current_player)
    bot = make_bot("normal", BOARD, CHART, seed=1, budget=Budget(seconds=0.3), pool=pool)
    bot.choose(obs)
    result = bot.last.result
    assert result.root is None  # a merged result: no tree of this process
    assert sum(result.visits.values()) == result.iterations >= 2


@pytest.mark.parametrize("level", ["hard", "normal"])
def test_the_reading_of_the_moves_is_worked_out_while_the_workers_search(
        pool, monkeypatch, level):
    # Hiding reads each legal move once a move; with workers that is done in the
    # game's process during their search (a Pi's fourth core), not before it.
    state = midgame(5, 2, 6)
    obs = state.observation(state.current_player)
    bot = SearchBot(BOARD, CHART, level=level, seed=3, budget=Budget(iterations=200),
                    pool=pool)
    during = []
    reading = SearchBot.reading

    def watched(self, obs):
        during.append(pool._serial)  # the number of the last search sent to the workers
        return reading(self, obs)

    monkeypatch.setattr(SearchBot, "reading", watched)
    before = pool._serial
    move = bot.choose(obs)
    assert state.is_legal(move)
    assert pool.usable and pool._serial == before + 1  # searched on the workers
    assert during == [pool._serial]  # during this move's search, not before it
    assert bot.last.result.iterations == 200  # the workers' whole budget still searched


def test_a_cancel_stops_every_worker_at_once(pool):
    state = midgame(4, 3, 5)
    obs = state.observation(state.current_player)
    bot = SearchBot(BOARD, CHART, level="hard", seed=2, budget=Budget(iterations=10**9),
                    pool=pool)
    cancel = threading.Event()
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(bot.choose(obs, cancel=cancel))
        except BaseException as exc:  # handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    time.sleep(0.5)  # the workers are searching
    cancel.set()
    thread.join(30)
    assert not thread.is_alive() and len(outcome) == 1 and isinstance(outcome[0], Cancelled)
    # Both workers have stopped: another search gets their answers, not a wait for 10**9
    # iterations (the thread would never end).
    other = make_bot("normal", BOARD, CHART, seed=1, budget=Budget(iterations=50), pool=pool)
    done = threading.Event()
    threading.Thread(target=lambda: (other.choose(obs), done.set()), daemon=True).start()
    assert done.wait(60), "a cancelled worker went on searching"
    assert other.last.iterations == 50


def test_a_worker_that_dies_costs_the_move_nothing(caplog):
    state = midgame(6, 2, 8)
    obs = state.observation(state.current_player)
    with SearchPool(2, BOARD, CHART) as p:
        assert p.ready(60)
        os.kill(p.pids[0], signal.SIGKILL)
        assert wait_gone([p.pids[0]])
        bot = make_bot("hard", BOARD, CHART, seed=1, budget=Budget(iterations=120), pool=p)
        move = bot.choose(obs)  # searched on this process instead
        assert Move(move.src, move.dst) in obs.legal_moves
        assert bot.last.iterations == 120
        assert not p.usable and "worker 1 has stopped" in (p.broken or "")
        assert "searching on one core" in caplog.text
        with pytest.raises(PoolBroken):
            p.search(_job(obs), iterations=10)


def _job(obs) -> Job:
    bot = SearchBot(BOARD, CHART, level="normal", seed=1)
    hyps, probs = bot.determinisations(obs)
    from clans_pi.bots.search_bot import _indices

    return Job("t", None, obs.players, hyps[0], obs.initial_huts, obs.moves,
               tuple(_indices(h) for h in hyps), tuple(probs), False, Settings(),
               tuple(tuple(0.0 for _ in range(5)) for _ in obs.players), "1", False)


# ----------------------------------------------------------------- no orphans


def test_closing_the_pool_ends_every_worker():
    p = SearchPool(3, BOARD, CHART)
    pids = p.pids
    assert len(pids) == 3 and p.ready(60)
    p.close()
    assert wait_gone(pids)
    assert not p.usable


@pytest.mark.slow
def test_no_worker_outlives_a_game_process_that_is_killed_mid_search(tmp_path):
    """The game's process is killed (SIGKILL: nothing of it runs again) while its workers
    search a budget they would take hours over: they notice and exit."""
    script = textwrap.dedent("""
        import sys, threading
        from clans_pi.bots import Budget, make_bot
        from clans_pi.bots.parallel import SearchPool
        from tests.rules_helpers import BOARD, CHART, midgame

        if __name__ == "__main__":
            pool = SearchPool(2, BOARD, CHART)
            assert pool.ready(60)
            state = midgame(3, 3, 6)
            bot = make_bot("hard", BOARD, CHART, seed=1, budget=Budget(iterations=10**9),
                           pool=pool)
            obs = state.observation(state.current_player)
            threading.Thread(target=bot.choose, args=(obs,), daemon=True).start()
            print(" ".join(map(str, pool.pids)), flush=True)
            threading.Event().wait()
    """)
    path = tmp_path / "game.py"
    path.write_text(script)
    game = subprocess.Popen([sys.executable, str(path)], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = game.stdout.readline()
        pids = [int(x) for x in line.split()]
        assert len(pids) == 2, line
        time.sleep(0.5)  # searching
        assert not any(gone(p) for p in pids)
        game.kill()
        game.wait(30)
        assert wait_gone(pids), "a search worker outlived the game"
    finally:
        if game.poll() is None:
            game.kill()
        game.stdout.close()


# --------------------------------------------------------------- a kept tree


def same_node(a, b) -> bool:
    """The same node of a search tree: the Python one's object, the compiled core's address."""
    return a is b or getattr(a, "address", None) == getattr(b, "address", 0)


def test_hard_starts_its_next_search_from_the_node_the_game_reached(search_path):
    """After its move and the others', Hard's search goes on below the node the game
    reached, with the visits it had gathered there."""
    state = midgame(21, 2, 10)
    me = state.current_player
    bot = SearchBot(BOARD, CHART, level="hard", seed=5, budget=Budget(iterations=3000))
    first = bot.choose(state.observation(me))
    tree = bot._trees[bot._owner]
    node = next(child for code, child in zip(tree.root.actions, tree.root.children,
                                           strict=False)
                if child is not None and Move(code >> 6 & 63, code & 63) == Move(first.src,
                                                                                first.dst))
    # The other player answers with the move the search expected most.
    reply_i = max(range(len(node.n)), key=node.n.__getitem__)
    reply_code = node.actions[reply_i]
    reply = Move(reply_code >> 6 & 63, reply_code & 63, node.orders.get(reply_code))
    kept = node.children[reply_i]
    assert kept is not None and kept.total > 0
    before = kept.total
    state.play(first)
    state.play(reply)
    bot.budget = Budget(iterations=500)
    bot.choose(state.observation(me))
    root = bot._trees[bot._owner].root
    assert same_node(root, kept) and root.total == before + 500


def test_a_kept_tree_is_not_used_after_an_undo_in_another_game_or_the_same_position(
        search_path):
    from clans_pi.bots.tree import Tree

    state = midgame(22, 3, 12)
    obs = state.observation(state.current_player)
    bot = SearchBot(BOARD, CHART, level="hard", seed=6, budget=Budget(iterations=300))
    move = bot.choose(obs)
    moves = obs.moves
    key = bot._trees[bot._owner].key

    def tree() -> Tree:
        """The bot's tree of ``obs``, searched anew: a tree is used once (the compiled
        core's is freed as it is followed), and the same position asked again gets the
        same move (after an undo, say)."""
        assert bot.choose(obs) == move
        kept = bot._trees[bot._owner]
        assert kept.key == key and kept.moves == moves and kept.root is not None
        return kept

    assert tree().reuse(key, moves) is None  # the same position: afresh
    assert tree().reuse(key, moves[:-1]) is None  # an undo
    assert tree().reuse(key, (*moves, Move(63, 63))) is None  # a move it never tried
    assert tree().reuse(("another", "game"), (*moves, move)) is None
    assert tree().reuse(key, (*moves, move)) is not None  # the move it searched most
    t = tree()
    t.reuse(key, moves)
    assert t.root is None  # a tree is used once, or dropped


def test_normal_keeps_no_tree_and_hard_keeps_one_per_bot():
    state = midgame(23, 2, 7)
    obs = state.observation(state.current_player)
    normal = SearchBot(BOARD, CHART, level="normal", seed=1, budget=Budget(iterations=100))
    hard = SearchBot(BOARD, CHART, level="hard", seed=1, budget=Budget(iterations=100))
    normal.choose(obs)
    hard.choose(obs)
    assert normal._trees == {} and set(hard._trees) == {hard._owner}


def test_run_job_keeps_at_most_a_few_bots_trees():
    from clans_pi.bots.parallel import TREES_KEPT

    state = midgame(24, 2, 5)
    obs = state.observation(state.current_player)
    job = _job(obs)
    trees: dict = {}
    for i in range(TREES_KEPT + 3):
        run_job(Job(f"bot{i}", ("g",), *_fields(job)[2:12], True), BOARD, CHART, trees,
                iterations=20)
    assert list(trees) == [f"bot{i}" for i in range(3, TREES_KEPT + 3)]


def _fields(job: Job) -> list:
    import dataclasses

    return [getattr(job, f.name) for f in dataclasses.fields(job)]


def test_each_worker_keeps_hards_tree_for_the_next_move(pool):
    # The workers search in the compiled core where it is built, the twin here too: the
    # two paths' trees are the same (tests/test_compiled_search.py).
    """Worker 0 searches exactly as the bot does on its own process with worker 0's share
    (same seed) and a root as wide as the two workers' (parallel.worker_job), so that twin
    shows which reply worker 0's tree has explored; after it, the merged root holds more
    visits than the new iterations: worker 0 went on from its tree."""
    state = midgame(31, 2, 10)
    me = state.current_player
    obs = state.observation(me)
    bot = make_bot("hard", BOARD, CHART, seed=4, budget=Budget(iterations=3000), pool=pool)
    hard = LEVEL_SETTINGS["hard"]
    as_worker_0 = replace(hard, search=replace(hard.search, root_breadth=2.0))
    twin = SearchBot(BOARD, CHART, level="hard", seed=4, budget=Budget(iterations=1500),
                     settings=as_worker_0)
    move = bot.choose(obs)
    assert twin.choose(obs) is not None
    tree = twin._trees[twin._owner].root
    i = next(k for k, code in enumerate(tree.actions[: len(tree.n)])
             if Move(code >> 6 & 63, code & 63, tree.orders.get(code)) == move)
    node = tree.children[i]
    assert node is not None, "worker 0 never went past the move the bot chose"
    j = max(range(len(node.n)), key=node.n.__getitem__)
    code = node.actions[j]
    state.play(move)
    state.play(Move(code >> 6 & 63, code & 63, node.orders.get(code)))
    bot.budget = Budget(iterations=400)
    bot.choose(state.observation(me))
    assert bot.last.iterations == 400
    assert sum(bot.last.result.visits.values()) > 400


def test_the_workers_roots_together_are_as_broad_as_one_tree_with_their_iterations(pool):
    """Hard widens its root with its visits (progressive widening): two workers of 800
    iterations consider as many moves as one search of 1,600 would, not those of 800."""
    import math

    state = midgame(33, 2, 4)
    obs = state.observation(state.current_player)
    bot = make_bot("hard", BOARD, CHART, seed=2, budget=Budget(iterations=1600), pool=pool)
    bot.choose(obs)
    assert len(bot.last.result.visits) >= math.ceil(0.5 * math.sqrt(1600))


def test_a_worker_that_dies_before_it_is_ready_costs_the_move_nothing():
    state = midgame(6, 3, 4)
    obs = state.observation(state.current_player)
    with SearchPool(2, BOARD, CHART) as p:
        for pid in p.pids:  # before (or just as) they say they are ready
            os.kill(pid, signal.SIGKILL)
        assert wait_gone(p.pids)
        bot = make_bot("normal", BOARD, CHART, seed=1, budget=Budget(iterations=60), pool=p)
        move = bot.choose(obs)
        assert Move(move.src, move.dst) in obs.legal_moves and bot.last.iterations == 60
        assert not p.usable
