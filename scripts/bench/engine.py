#!/usr/bin/env python3
"""Benchmark the rules engine: random full games per second on one core.

Prints one JSON object. ``games_per_s``/``moves_per_s`` time whole random games on the
shipped board, from the deal (R5-R7) to the end (R18/R19), with the random mover's rollout
(``GameState.playout``: uniform legal moves, uniform village orders). Each figure is the
median of ``--rounds`` timed rounds, since a shared machine is noisy.

``--compare`` also times the move-by-move paths and the straightforward dict-of-Counters
reference implementation in tests/reference_engine.py, for the speed-up ratio.

``--search`` also times the computer players' search: Hard's and Normal's iterations per
second on one worker (the game's own process) and Hard's with 2 worker processes
(``SearchPool``, root parallel), each deciding the moves of positions spread over a seeded
3-player game with a ``--search-seconds`` budget, as at the table; the median of
``--rounds`` rounds, the worker counts taking turns within a round. It prints
``search_parallel_speedup`` (2 workers' iterations per second over 1 worker's) and each
worker process's memory (``search_worker_rss_mb``, resident, after searching), and what
hiding adds to a move before its search (``hiding_reading_ms_*``, :func:`reading_cost`).

``--compiled`` also times the compiled core against the Python path, side by side in one
run (:mod:`scripts.bench.compiled`): ``speedup_playout``, ``speedup_search`` (the lower of
Hard's and Normal's) and ``identical`` (its own seeded games and searches agree on both
paths). ``--json``: only the JSON object (what it prints anyway).

Usage: .venv/bin/python scripts/bench/engine.py [--seconds 1.0] [--rounds 5] [--compare]
       [--search [--search-seconds 0.5]] [--compiled] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from clans_pi.bots.random_mover import RandomMover  # noqa: E402
from clans_pi.rules.board import load_default_board  # noqa: E402
from clans_pi.rules.constants import CLANS  # noqa: E402
from clans_pi.rules.epochs import load_default_chart  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402

PLAYERS = ("a", "b", "c")


def timed(one_game: Callable[[], int], seconds: float, rounds: int) -> tuple[float, float]:
    """Run ``one_game`` (returns its move count) for ``rounds`` rounds of ``seconds``;
    return the median games/s and moves/s."""
    games_rates, move_rates = [], []
    for _ in range(rounds):
        games = moves = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            moves += one_game()
            games += 1
            if games % 16 == 0 and time.perf_counter() >= deadline:
                break
        elapsed = time.perf_counter() - start
        games_rates.append(games / elapsed)
        move_rates.append(moves / elapsed)
    return statistics.median(games_rates), statistics.median(move_rates)


#: Plies of the benchmark's game whose positions the search decides.
SEARCH_PLIES = (0, 12, 24, 36, 48)


def search_positions(seed: int) -> list:
    """One player's view at each of SEARCH_PLIES of a seeded random 3-player game."""
    board, chart = load_default_board(), load_default_chart()
    rng = random.Random(seed)
    state = deal(board, PLAYERS, rng, chart)
    mover = RandomMover(rng=rng)
    out = []
    for ply in SEARCH_PLIES:
        while state.ply < ply and not state.is_over:
            state.play(mover.choose(state))
        if state.is_over:
            break
        out.append(state.observation(state.current_player))
    return out


def search_rates(seconds: float, rounds: int, seed: int) -> dict[str, object]:
    """The search's iterations per second on 1 and 2 workers (see the module docstring)."""
    from clans_pi.bots import Budget, make_bot
    from clans_pi.bots.parallel import SearchPool

    board, chart = load_default_board(), load_default_chart()
    positions = search_positions(seed)
    rates: dict[str, list[float]] = {"hard_1": [], "hard_2": [], "normal_1": []}
    with SearchPool(2, board, chart) as pool:
        if not pool.ready(120):
            raise SystemExit("bench.py: the search workers did not start")
        for r in range(rounds):
            for name in rates:
                level, workers = name.split("_")
                iterations, elapsed = 0, 0.0
                for k, obs in enumerate(positions):
                    bot = make_bot(level, board, chart, seed=seed + 1000 * r + k,
                                   budget=Budget(seconds=seconds),
                                   pool=pool if workers == "2" else None)
                    start = time.perf_counter()
                    bot.choose(obs)
                    elapsed += time.perf_counter() - start
                    iterations += bot.last.iterations  # type: ignore[attr-defined]
                rates[name].append(iterations / elapsed)
        rss = [_rss_mb(pid) for pid in pool.pids]
    one, two = statistics.median(rates["hard_1"]), statistics.median(rates["hard_2"])
    return {
        "search_iterations_per_s_1": round(one),
        "search_iterations_per_s_2": round(two),
        "search_parallel_speedup": round(two / one, 2),
        "search_normal_iterations_per_s_1": round(statistics.median(rates["normal_1"])),
        "search_worker_rss_mb": max(rss),
        "search_path": f"Hard (and Normal) choosing the moves at plies {list(SEARCH_PLIES)} "
                       f"of a seeded 3-player game, {seconds:g} s a move",
    }


def reading_cost(seed: int) -> dict[str, object]:
    """What hiding adds to a move: ``SearchBot.reading``, how the table would
    read each of the mover's legal moves, timed at every turn of one seat through a seeded
    random 3-player game, as at the table (its own moves replayed as they come). With
    search workers it is worked out in the game's process while they search; on one core,
    before the search, inside the move's seconds (the search is that much shorter)."""
    from clans_pi.bots.search_bot import SearchBot

    board, chart = load_default_board(), load_default_chart()
    rng = random.Random(seed)
    state = deal(board, PLAYERS, rng, chart)
    mover = RandomMover(rng=rng)
    bot = SearchBot(board, chart, level="hard", seed=seed)
    times = []
    last = None
    while not state.is_over:
        if state.current_player == 0:
            last = state.observation(0)
            start = time.perf_counter()
            bot.reading(last)
            times.append(time.perf_counter() - start)
        state.play(mover.choose(state))
    # A bot new to the game (a resumed game, a seat's first hint) replays every move of it
    # once: its last turn's reading from scratch.
    assert last is not None
    fresh = SearchBot(board, chart, level="hard", seed=seed)
    start = time.perf_counter()
    fresh.reading(last)
    return {"hiding_reading_ms_median": round(1000 * statistics.median(times), 2),
            "hiding_reading_ms_max": round(1000 * max(times), 2),
            "hiding_reading_moves": len(times),
            "hiding_reading_fresh_ms": round(1000 * (time.perf_counter() - start), 2),
            "hiding_reading_fresh_ply": last.ply}


def _rss_mb(pid: int) -> float:
    """A process's resident memory in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (median taken)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", action="store_true", help="also time slower paths")
    parser.add_argument("--search", action="store_true",
                        help="also time the search on 1 and 2 worker processes")
    parser.add_argument("--compiled", action="store_true",
                        help="also time the compiled core against the Python path")
    parser.add_argument("--json", action="store_true",
                        help="print the JSON object only (as it does anyway)")
    parser.add_argument("--search-seconds", type=float, default=0.5,
                        help="the search's budget a move")
    args = parser.parse_args()

    board, chart = load_default_board(), load_default_chart()
    rng = random.Random(args.seed)
    rand = rng.random

    def playout_game() -> int:
        state = deal(board, PLAYERS, rng, chart)
        state.playout(rand)
        return state.ply

    games_per_s, moves_per_s = timed(playout_game, args.seconds, args.rounds)
    out: dict[str, object] = {
        "games_per_s": round(games_per_s),
        "moves_per_s": round(moves_per_s),
        "path": "deal + GameState.playout (random mover rollout), 3 players",
        "board": board.id,
        "rounds": args.rounds,
        "seconds_per_round": args.seconds,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    if args.compare:
        mover = RandomMover(rng=rng)

        def push_game() -> int:
            state = deal(board, PLAYERS, rng, chart)
            while not state.is_over:
                state.push(mover.choose(state))
            return state.ply

        def play_game() -> int:
            state = deal(board, PLAYERS, rng, chart)
            while not state.is_over:
                state.play(mover.choose(state))
            return state.ply

        from tests.reference_engine import ReferenceGame

        board_dict, chart_dict = board.to_dict(), chart.to_dict()

        def reference_game() -> int:
            state = deal(board, PLAYERS, rng, chart)
            huts = {t: CLANS[c] for t, c in enumerate(state.initial_huts)}
            game = ReferenceGame(board_dict, chart_dict, len(PLAYERS), list(state.clans), huts)
            moves = 0
            while not game.is_over():
                src, dst = rng.choice(sorted(game.legal_moves()))
                founded = sorted(game.villages_founded_by(src, dst))
                rng.shuffle(founded)
                game.play(src, dst, founded if len(founded) > 1 else None)
                moves += 1
            return moves

        for name, fn in (
            ("push_with_undo", push_game),
            ("play_checked_with_events", play_game),
            ("reference_dict_of_counters", reference_game),
        ):
            g, m = timed(fn, args.seconds, args.rounds)
            out[f"{name}_games_per_s"] = round(g, 1)
            out[f"{name}_moves_per_s"] = round(m)
        out["speedup_vs_reference"] = round(
            games_per_s / float(out["reference_dict_of_counters_games_per_s"]), 1
        )
    if args.search:
        out.update(search_rates(args.search_seconds, args.rounds, args.seed))
        out.update(reading_cost(args.seed))
    if args.compiled:
        from scripts.bench.compiled import compare

        out.update(compare(args.seconds, args.rounds, args.seed))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
