#!/usr/bin/env python3
"""Profile the search's iteration: iterations per second and where an iteration's time goes.

For each level (Hard, Normal) and position (start, middle and late game; 2, 3 and 4
players) a seeded bot (:func:`clans_pi.bots.make_bot`, ``Budget(iterations=N)``) chooses a
move. The search call it makes is caught on its way to :func:`.ismcts.search`:

* **iterations/s** times that real, uninstrumented call in CPU time (``process_time``: the
  search is one thread, and CPU time is less disturbed by other jobs than wall time),
  median of ``--repeat`` runs;
* **parts** rerun the same search (same arguments, same random numbers) in
  :func:`instrumented_search`, a copy of the search's loop with a ``perf_counter`` read
  between the parts: tree walk (selection and expansion: node creation, drawing and
  sorting children, the pushes down the tree), determinisation (``sample``), state copy,
  playout, rewards, backup; "other" is the loop's own bookkeeping and the timer reads (about
  8 reads of ~50 ns an iteration, a few % of it). The copy must choose what the real search
  chooses (checked on every run: a copy that drifted from the loop fails loudly);
* **floor**: a bare ``state.copy(stack=False); state.playout(rand)`` (the engine's own
  playout path) from the states where the search's playouts began (every 16th iteration's,
  copied aside untimed), to hold an iteration's copy + playout against.

``--against CHECKOUT`` also times another checkout's search (its ``clans_pi`` imported
beside this one as ``clans_pi_against``) on the same positions, run for run interleaved with
this one's, and checks that both choose the same move with the same visits: a before/after
comparison in one process, so both see the same load.

``--cprofile`` also prints cProfile's top functions for one Hard search, to cross-check the
shares (cProfile adds a cost to every call, so it inflates the parts made of many small
calls, the tree walk most).

Prints a readable table on stderr and one JSON object on stdout.

Usage: .venv/bin/python scripts/research/profile_search.py [--iterations 3000] [--repeat 3]
       [--levels hard,normal] [--players 2,3,4] [--stages start,middle,late] [--no-parts]
       [--against OLD_CHECKOUT] [--cprofile]
"""

from __future__ import annotations

import argparse
import atexit
import cProfile
import importlib
import io
import json
import platform
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT))  # appended: PYTHONPATH may point at another checkout to compare

from clans_pi.bots import ismcts  # noqa: E402
from clans_pi.bots.ismcts import Result, Settings, _Node, _rewards  # noqa: E402
from clans_pi.rules.state import GameState  # noqa: E402

NAMES = ("Ann", "Bob", "Cid", "Dee")
STAGES = {"start": 0, "middle": 15, "late": 30}  # plies played by the random mover
PARTS = ("walk", "sample", "copy", "playout", "rewards", "backup", "other")


class Engine:
    """The package to profile: this checkout's ``clans_pi``, or another checkout's loaded
    beside it under another name (``--against``)."""

    def __init__(self, package: str = "clans_pi") -> None:
        def load(name: str) -> Any:
            return importlib.import_module(f"{package}.{name}")

        self.bots, self.ismcts, self.search_bot = (
            load("bots"),
            load("bots.ismcts"),
            load("bots.search_bot"),
        )
        # The module whose ``search`` the bots call: the workers' job runner (a checkout
        # from before the workers: the bot itself).
        try:
            self.caller = load("bots.parallel")
        except ImportError:
            self.caller = self.search_bot
        self.deal = load("rules.setup").deal
        self.board = load("rules.board").load_default_board()
        self.chart = load("rules.epochs").load_default_chart()

    @classmethod
    def checkout(cls, root: str) -> Engine:
        """The ``clans_pi`` of the checkout at ``root``, imported as ``clans_pi_against``."""
        folder = Path(tempfile.mkdtemp(prefix="profile_search_"))
        atexit.register(shutil.rmtree, folder)  # the link only: rmtree does not follow it
        (folder / "clans_pi_against").symlink_to(Path(root).resolve() / "clans_pi")
        sys.path.insert(0, str(folder))
        return cls("clans_pi_against")


def position(num_players: int, plies: int, seed: int, engine: Engine | None = None) -> GameState:
    """A seeded deal played on by uniformly random moves for ``plies`` moves."""
    engine = engine or Engine()
    rng = random.Random(seed)
    state = engine.deal(engine.board, NAMES[:num_players], rng, engine.chart)
    while state.ply < plies and not state.is_over:
        state.push_action(state.random_legal_action(rng.random), undo=False)
    return state


def catch_search(
    level: str, state: GameState, iterations: int, seed: int, engine: Engine | None = None
) -> tuple:
    """The arguments the ``level`` bot passes to the search for ``state``'s player."""
    engine = engine or Engine()
    budget = engine.bots.Budget(iterations=iterations)
    bot = engine.bots.make_bot(level, state.board, state.chart, seed=seed, budget=budget)
    caught: list[tuple] = []

    def fake(*args: Any, **kwargs: Any) -> Result:
        assert kwargs.pop("root", None) is None, "a fresh bot starts a fresh tree"
        caught.append((args, kwargs, args[2].getstate()))
        raise engine.bots.Cancelled()

    real = engine.caller.search
    engine.caller.search = fake
    try:
        bot.choose(state.observation(state.current_player))
    except engine.bots.Cancelled:
        pass
    finally:
        engine.caller.search = real
    assert caught, "the bot did not search (a single legal move?)"
    return caught[0]


def run(fn: Callable[..., Result], call: tuple) -> tuple[Result, float]:
    """Run ``fn`` with a caught search call (its random numbers from the start)."""
    args, kwargs, rng_state = call
    rng = random.Random()
    rng.setstate(rng_state)
    args = (args[0], args[1], rng, *args[3:])
    start = time.process_time()
    result = fn(*args, **kwargs)
    return result, time.process_time() - start


def instrumented_search(
    state: GameState,
    sample: Callable[[random.Random], tuple[int, ...]],
    rng: random.Random,
    settings: Settings,
    *,
    iterations: int | None = None,
    deadline: float | None = None,
    cancel: threading.Event | None = None,
    clan_weights: Sequence[Sequence[float]] | None = None,
    times: dict[str, float],
    leaves: list[GameState] | None = None,
) -> Result:
    """:func:`.ismcts.search`'s loop (its own walk, :func:`.ismcts.walker`) with a timer
    between its parts, added into ``times``; every 16th iteration's state before its
    playout copied into ``leaves`` (not timed). Keep in step with the search (the script
    checks that both choose alike)."""
    assert iterations is not None
    now = time.perf_counter
    t_start = now()
    root = ismcts.prepare_root(state, rng, settings, clan_weights, None)
    rand = rng.random
    walker = ismcts.walker(root, state.num_players, rng, settings, clan_weights)
    mw = settings.margin_weight
    ms = settings.margin_scale
    done = 0
    path: list[tuple[_Node, int]] = []
    walk = samp = cop = play = rew = back = skip = 0.0
    t_loop = now()
    while done < iterations:
        t0 = now()
        clans = sample(rng)
        t1 = now()
        st = state.copy(stack=False)
        t2 = now()
        path.clear()
        walker(st, path)
        t3 = t3_end = now()
        if leaves is not None and not done % 16:
            leaves.append(st.copy(stack=False))
            t3_end = now()
            skip += t3_end - t3
        st.playout(rand)
        t4 = now()
        rewards = _rewards(st, clans, mw, ms)
        t5 = now()
        for node, i in path:
            node.w[i] += rewards[node.player]
        done += 1
        t6 = now()
        samp += t1 - t0
        cop += t2 - t1
        walk += t3 - t2
        play += t4 - t3_end
        rew += t5 - t4
        back += t6 - t5
    t_end = now()
    result = ismcts.result_of(root, done)
    parts = {"walk": walk, "sample": samp, "copy": cop, "playout": play, "rewards": rew,
             "backup": back}  # fmt: skip
    parts["walk"] += t_loop - t_start  # the root's node and its sorting
    parts["other"] = (t_end - t_start - skip) - sum(parts.values())
    for name, value in parts.items():
        times[name] = times.get(name, 0.0) + value
    return replace(result, root=None)


def floor_us(leaves: Sequence[GameState], rounds: int = 5) -> float:
    """Microseconds of a bare ``copy(stack=False)`` + ``playout`` from each of ``leaves``
    (where the search's playouts began), median of ``rounds``
    (timed like the parts, on ``perf_counter``)."""
    rand = random.Random(0).random
    per_round = []
    for _ in range(rounds):
        start = time.perf_counter()
        for leaf in leaves:
            st = leaf.copy(stack=False)
            st.playout(rand)
        per_round.append((time.perf_counter() - start) / len(leaves) * 1e6)
    return statistics.median(per_round)


def main(argv: Sequence[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3000, help="iterations a search")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs a search (median)")
    parser.add_argument("--levels", default="hard,normal")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--stages", default="start,middle,late")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-parts", action="store_true", help="time the real search only")
    parser.add_argument("--cprofile", action="store_true", help="cProfile one Hard search")
    parser.add_argument(
        "--against", metavar="CHECKOUT", help="also time this checkout's search, interleaved"
    )
    args = parser.parse_args(argv)
    other = Engine.checkout(args.against) if args.against else None

    rows = []
    for level in args.levels.split(","):
        for np_ in map(int, args.players.split(",")):
            for stage in args.stages.split(","):
                state = position(np_, STAGES[stage], args.seed + np_)
                call = catch_search(level, state, args.iterations, args.seed)
                if other is not None:
                    other_state = position(np_, STAGES[stage], args.seed + np_, other)
                    other_call = catch_search(level, other_state, args.iterations, args.seed, other)
                rates, other_rates, part_runs = [], [], []
                leaves: list[GameState] = []
                for k in range(args.repeat):
                    if other is not None and k % 2:  # interleaved: each goes first in turn
                        before, secs = run(other.ismcts.search, other_call)
                        other_rates.append(before.iterations / secs)
                    result, secs = run(ismcts.search, call)
                    rates.append(result.iterations / secs)
                    if other is not None and not k % 2:
                        before, secs = run(other.ismcts.search, other_call)
                        other_rates.append(before.iterations / secs)
                    if other is not None:
                        assert (repr(before.move), repr(before.visits)) == (
                            repr(result.move),
                            repr(result.visits),
                        ), f"the search chose unlike the one of {args.against}"
                    if not args.no_parts:
                        times: dict[str, float] = {}
                        check, _ = run(
                            partial(  # the leaves of the first run only
                                instrumented_search, times=times, leaves=None if leaves else leaves
                            ),
                            call,
                        )
                        assert (check.move, check.visits) == (result.move, result.visits), (
                            "instrumented_search drifted from ismcts.search"
                        )
                        part_runs.append(times)
                row: dict[str, Any] = {
                    "level": level,
                    "players": np_,
                    "stage": stage,
                    "ply": state.ply,
                    "iterations_per_s": round(statistics.median(rates)),
                }
                if other_rates:
                    row["against_iterations_per_s"] = round(statistics.median(other_rates))
                    row["speedup"] = round(
                        row["iterations_per_s"] / row["against_iterations_per_s"], 3
                    )
                if part_runs:
                    med = {p: statistics.median(t[p] for t in part_runs) for p in PARTS}
                    total = sum(med.values())
                    row["share_pct"] = {p: round(100 * med[p] / total, 1) for p in PARTS}
                    row["us_per_iteration"] = {
                        p: round(1e6 * med[p] / args.iterations, 2) for p in PARTS
                    }
                    row["copy_playout_us"] = round(
                        row["us_per_iteration"]["copy"] + row["us_per_iteration"]["playout"], 1
                    )
                    row["floor_copy_playout_us"] = round(floor_us(leaves), 1)
                rows.append(row)
    out: dict[str, Any] = {
        "iterations": args.iterations,
        "repeat": args.repeat,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rows": rows,
    }
    if other is not None:
        out["against"] = args.against
        for level in args.levels.split(","):
            ups = [r["speedup"] for r in rows if r["level"] == level]
            out[f"{level}_speedup_geomean"] = round(statistics.geometric_mean(ups), 3)
    if rows and "share_pct" in rows[0]:
        out["mean_share_pct"] = {
            p: round(statistics.fmean(r["share_pct"][p] for r in rows), 1) for p in PARTS
        }
    print_table(out)
    if args.cprofile:
        state = position(3, STAGES["middle"], args.seed + 3)
        call = catch_search("hard", state, args.iterations, args.seed)
        prof = cProfile.Profile()
        prof.enable()
        run(ismcts.search, call)
        prof.disable()
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(15)
        print(text.getvalue(), file=sys.stderr)
    print(json.dumps(out))
    return out


def print_table(out: dict) -> None:
    head = f"{'level':6} {'pl':>2} {'stage':6} {'ply':>3} {'it/s':>7}"
    against = out["rows"] and "against_iterations_per_s" in out["rows"][0]
    if against:
        head += f" {'before':>7} {'x':>6}"
    has_parts = out["rows"] and "share_pct" in out["rows"][0]
    if has_parts:
        head += "".join(f" {p:>8}" for p in PARTS) + f" {'cp+po_us':>8} {'floor_us':>8}"
    print(head, file=sys.stderr)
    for r in out["rows"]:
        line = f"{r['level']:6} {r['players']:>2} {r['stage']:6} {r['ply']:>3} "
        line += f"{r['iterations_per_s']:>7}"
        if against:
            line += f" {r['against_iterations_per_s']:>7} {r['speedup']:>6.3f}"
        if has_parts:
            line += "".join(f" {r['share_pct'][p]:>7.1f}%" for p in PARTS)
            line += f" {r['copy_playout_us']:>8.1f} {r['floor_copy_playout_us']:>8.1f}"
        print(line, file=sys.stderr)
    if "mean_share_pct" in out:
        print(
            "mean share: " + ", ".join(f"{p} {v} %" for p, v in out["mean_share_pct"].items()),
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
