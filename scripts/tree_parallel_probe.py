#!/usr/bin/env python3
"""A probe, not the game's search: how many iterations a second ONE tree gets when its
simulations run on helper processes (tree kept by one process, playouts farmed out in
batches, a visit counted at selection as a virtual loss and the reward added when it comes
back), against the same search on one process.

Root-parallel search (clans_pi/bots/parallel.py) gives each worker its own tree; at two
players, three trees of 2,500 iterations won 0.333 of 24 games against one of 10,000, where
one tree of 7,500 won 0.646 and one of 4,500 0.521 on the same deals (0.385 over 48; three
trees 0.260; docs/BENCHMARKS.md): the split costs most of what the iterations are worth.
This measures what one tree can get from several processes, so that the figure can be set
against a one-tree tournament at that budget.
The search is Hard's (widening, the heuristic's order) with uniform determinisations and
clan weights: what an iteration costs, not how well it plays.

Prints one JSON object: iterations a second on one process and in the farmed tree, and
the CPU time an iteration costs the one process and the tree's process (with
``--no-local`` the tree's process never simulates, so its figure is what the tree alone
costs and ``tree_bound_speedup`` the most any number of helpers could give).

Usage: .venv/bin/python scripts/tree_parallel_probe.py [--helpers 1] [--seconds 3]
       [--batch 32] [--rounds 3] [--no-local] [--cprofile]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import multiprocessing
import pstats
import random
import statistics
import sys
import time
from multiprocessing.connection import Connection, wait
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clans_pi.bots.ismcts import (  # noqa: E402
    _MASK,
    Settings,
    _Node,
    _rewards,
    prepare_root,
    search,
    uniform_sampler,
    walker,
)
from clans_pi.rules.board import Board, load_default_board  # noqa: E402
from clans_pi.rules.constants import CLANS  # noqa: E402
from clans_pi.rules.epochs import EpochChart, load_default_chart  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402
from clans_pi.rules.state import GameState  # noqa: E402

SETTINGS = Settings(widening=0.5, ordered=True)


def position(plies: int, seed: int) -> GameState:
    board, chart = load_default_board(), load_default_chart()
    rng = random.Random(seed)
    state = deal(board, ("a", "b"), rng, chart, random_first=False)
    for _ in range(plies):
        state.play(state.legal_moves()[int(rng.random() * len(state.legal_moves()))])
    return state


def simulate(root: GameState, moves, clans, rand) -> list[float]:
    """Each player's reward of one simulation: ``moves`` down from ``root``, then a
    random playout (as :func:`clans_pi.bots.ismcts.search` simulates)."""
    st = root.copy(stack=False)
    for action, order in moves:
        st.push_action(action, order, undo=False)
    st.playout(rand)
    return _rewards(st, clans, SETTINGS.margin_weight, SETTINGS.margin_scale)


def set_root(conns: list[Connection], state: GameState) -> None:
    """Tell the helpers the position the next search starts from."""
    obs = state.observation(state.current_player)
    for cn in conns:
        cn.send(("root", obs.players, state.clans, obs.initial_huts, obs.moves))


def helper(conn: Connection, board_data: dict, chart_data: dict) -> None:
    board, chart = Board.from_dict(board_data), EpochChart.from_dict(chart_data)
    rng = random.Random(7)
    rand = rng.random
    root: GameState | None = None
    while True:
        msg = conn.recv()
        if msg is None:
            return
        if msg[0] == "root":
            _, players, clans, huts, moves = msg
            root = GameState(board, chart, players, clans, huts)
            for m in moves:
                root.push(m, undo=False)
            continue
        conn.send([simulate(root, moves, clans, rand) for moves, clans in msg[1]])


def farmed_search(state: GameState, conns: list[Connection], sample, rng, seconds: float,
                  batch: int, weights, local: bool = True) -> int:
    """One tree here; simulations of ``batch`` leaves at a time on the helpers (and here
    when every helper has two batches to do, unless not ``local``)."""
    root = prepare_root(state, rng, SETTINGS, weights, None)
    walk = walker(root, state.num_players, rng, SETTINGS, weights)
    rand = rng.random
    done = 0
    # Leaves selected (their paths, with the visit counted) and their determinisations.
    pending: list[tuple[list[tuple[_Node, int]], tuple[int, ...]]] = []
    inflight: dict[Connection, list[list]] = {cn: [] for cn in conns}
    end = time.monotonic() + seconds

    def backup(path: list[tuple[_Node, int]], rewards: list[float]) -> None:
        for node, i in path:
            node.w[i] += rewards[node.player]

    def collect(cn: Connection) -> int:
        """Take a helper's oldest batch of rewards; the leaves it covered."""
        paths = inflight[cn].pop(0)
        for path, rewards in zip(paths, cn.recv(), strict=True):
            backup(path, rewards)
        return len(paths)

    def send(cn: Connection) -> None:
        cn.send(("leaves", [(list(_moves_of(p)), cl) for p, cl in pending]))
        inflight[cn].append([p for p, _ in pending])

    def simulate_here() -> int:
        for p, cl in pending:
            backup(p, simulate(state, _moves_of(p), cl, rand))
        return len(pending)

    while time.monotonic() < end:
        for cn in wait([cn for cn in conns if inflight[cn]], 0):  # what came back
            done += collect(cn)
        clans = sample(rng)
        st = state.copy(stack=False)
        path: list[tuple[_Node, int]] = []
        walk(st, path)  # each visit counts now (a virtual loss until its reward)
        pending.append((path, clans))
        if len(pending) >= batch:
            if not local and all(len(inflight[cn]) >= 2 for cn in conns):
                # wait for a helper (measures the tree's own cost)
                for cn in wait(conns):
                    done += collect(cn)
            free = [cn for cn in conns if len(inflight[cn]) < 2]
            if free:
                send(min(free, key=lambda x: len(inflight[x])))
            else:  # every helper busy: simulate them here
                done += simulate_here()
            pending = []
    for cn in conns:
        while inflight[cn]:
            done += collect(cn)
    done += simulate_here()  # selected but not sent: counted, so simulated here
    assert root.total == done == sum(root.n), "an iteration was lost or counted twice"
    return done


def _moves_of(path):
    for node, i in path:
        code = node.actions[i]
        yield code & _MASK, node.orders.get(code)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--helpers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-local", action="store_true",
                        help="the tree's process never simulates (its own cost alone)")
    parser.add_argument("--cprofile", action="store_true",
                        help="also profile the tree's process in one more search (stderr)")
    args = parser.parse_args()
    ctx = multiprocessing.get_context("spawn")
    board, chart = load_default_board(), load_default_chart()
    conns, procs = [], []
    for _ in range(args.helpers):
        here, there = ctx.Pipe()
        p = ctx.Process(target=helper, args=(there, board.to_dict(), chart.to_dict()),
                        daemon=True)
        p.start()
        conns.append(here)
        procs.append(p)
    hyps = [(a, b) for a in range(len(CLANS)) for b in range(len(CLANS)) if a != b]
    sample = uniform_sampler(hyps)
    weights = [[0.2] * len(CLANS)] * 2
    one, farmed, one_cpu, master_cpu = [], [], [], []
    for r in range(args.rounds):
        for plies in (0, 12, 24):
            state = position(plies, 100 + r)
            set_root(conns, state)
            c0 = time.process_time()
            t = time.monotonic()
            res = search(state, sample, random.Random(r), SETTINGS,
                         deadline=t + args.seconds, clan_weights=weights)
            one.append(res.iterations / (time.monotonic() - t))
            one_cpu.append((time.process_time() - c0) / res.iterations * 1e6)
            c0 = time.process_time()
            t = time.monotonic()
            n = farmed_search(state, conns, sample, random.Random(r), args.seconds,
                              args.batch, weights, local=not args.no_local)
            farmed.append(n / (time.monotonic() - t))
            master_cpu.append((time.process_time() - c0) / n * 1e6)
    if args.cprofile:  # where the tree's process spends its time (the middle position)
        state = position(12, 100)
        set_root(conns, state)
        profile = cProfile.Profile()
        profile.runcall(farmed_search, state, conns, sample, random.Random(0), args.seconds,
                        args.batch, weights, local=not args.no_local)
        pstats.Stats(profile, stream=sys.stderr).sort_stats("tottime").print_stats(14)
    for cn in conns:
        cn.send(None)
    for p in procs:
        p.join(5)
    out = {
        "helpers": args.helpers, "batch": args.batch, "no_local": args.no_local,
        "one_process_it_s": round(statistics.median(one)),
        "one_tree_it_s": round(statistics.median(farmed)),
        "speedup": round(statistics.median(farmed) / statistics.median(one), 2),
        "one_process_cpu_us": round(statistics.median(one_cpu)),
        "tree_process_cpu_us": round(statistics.median(master_cpu)),
        # With enough helpers, the tree's process is the limit: this many times one core.
        "tree_bound_speedup": round(statistics.median(one_cpu)
                                    / statistics.median(master_cpu), 2),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
