#!/usr/bin/env python3
"""Profile the search's iteration: iterations per second and where an iteration's time goes.

It profiles the Python search (:mod:`clans_pi.bots.ismcts`, the reference): it sets
``CLANS_PI_CORE=python``. The compiled core's search is timed against it by
``scripts/bench/engine.py --compiled``.

For each level (Hard, Normal) and position (start, middle and late game; 2, 3 and 4
players) a seeded bot (:func:`clans_pi.bots.make_bot`, ``Budget(iterations=N)``) chooses a
move. The search call it makes is caught on its way to :func:`.ismcts.search`:

* **iterations/s** times that real, uninstrumented call in CPU time (``process_time``: the
  search is one thread, and CPU time is less disturbed by other jobs than wall time),
  median of ``--repeat`` runs;
* **parts** rerun the same real search (same arguments, same random numbers) with the
  functions it calls wrapped by timers (:func:`instrumented`: ``ismcts.prepare_root``,
  ``ismcts.walker``'s walk and ``ismcts._rewards``, ``GameState.copy`` and
  ``GameState.playout``, and the caught ``sample``), each moment charged to one part
  (:class:`Timeline`): tree walk (selection and expansion: node creation, drawing and
  sorting children, the pushes down the tree, and the root's), determinisation
  (``sample``), state copy, playout, rewards, and backup (the search's loop from the rewards
  to the next determinisation: the backup and the budget and cancel checks); "other" is the
  rest of the loop and the timers' own cost (two ``perf_counter`` reads and a call for
  each of 5 parts an iteration, a few % of it). The timed run must choose what the
  untimed one chose, and each of its iterations must have played a game out once (checked
  on every run); the JSON's ``parts_iterations`` are the iterations the search counted;
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
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run by path; appended: PYTHONPATH may name another checkout
    sys.path.append(str(ROOT))

from clans_pi.bots import ismcts  # noqa: E402
from clans_pi.bots.ismcts import Result  # noqa: E402
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


class Timeline:
    """Charges every moment of one search to a part, on ``perf_counter``. A wrapped function
    (:meth:`timed`) charges its own time to its part; time in a wrapped function it calls
    goes to that one's part; the time after a function called from the search's loop
    returns, until the next one starts, goes to the part it hands over to (``then``: the
    loop's own code between the parts)."""

    GAPS = ("other", "backup")  # the search's loop between the wrapped functions

    def __init__(self) -> None:
        self.times = dict.fromkeys((*PARTS, "aside"), 0.0)
        self.calls = dict.fromkeys(self.times, 0)
        self.current = "other"
        self.mark = time.perf_counter()

    def start(self) -> None:
        self.current, self.mark = "other", time.perf_counter()

    def switch(self, part: str) -> str:
        """Charge the time since the last switch to the current part; ``part`` runs now."""
        now = time.perf_counter()
        self.times[self.current] += now - self.mark
        self.mark = now
        outer, self.current = self.current, part
        return outer

    def timed(self, part: str, fn: Callable[..., Any], then: str = "other") -> Callable[..., Any]:
        switch, calls, gaps = self.switch, self.calls, self.GAPS

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            outer = switch(part)
            calls[part] += 1
            try:
                return fn(*args, **kwargs)
            finally:
                switch(then if outer in gaps else outer)

        return wrapped


@contextmanager
def instrumented(timeline: Timeline, leaves: list[GameState] | None) -> Iterator[None]:
    """While inside, the functions :func:`.ismcts.search` calls are wrapped by
    ``timeline``'s timers (the module's attributes and ``GameState``'s methods the search
    looks up at each call), and every 16th state a playout starts from is copied into
    ``leaves`` (charged to "aside", left out of the parts)."""
    names = ("prepare_root", "walker", "_rewards", "result_of")
    real = {name: getattr(ismcts, name) for name in names}
    copy, playout = GameState.copy, GameState.playout
    timed = timeline.timed
    timed_playout = timed("playout", playout)
    aside = timed("aside", lambda st: leaves.append(copy(st, stack=False)))  # type: ignore[union-attr]

    def walker(*args: Any, **kwargs: Any) -> Callable[..., None]:
        return timed("walk", real["walker"](*args, **kwargs))

    def playout_keeping_leaves(st: GameState, rand: Callable[[], float]) -> None:
        if not timeline.calls["playout"] % 16:
            aside(st)
        timed_playout(st, rand)

    ismcts.prepare_root = timed("walk", real["prepare_root"])  # the root's node and sorting
    ismcts.walker = walker
    ismcts._rewards = timed("rewards", real["_rewards"], then="backup")
    ismcts.result_of = timed("other", real["result_of"])  # the last backup ends there
    GameState.copy = timed("copy", copy)
    GameState.playout = timed_playout if leaves is None else playout_keeping_leaves
    try:
        yield
    finally:
        for name, fn in real.items():
            setattr(ismcts, name, fn)
        GameState.copy, GameState.playout = copy, playout


def parts(call: tuple, leaves: list[GameState] | None = None) -> tuple[Result, Timeline]:
    """Run the real :func:`.ismcts.search` of a caught call with its parts timed: the
    determinisation (the caught ``sample``), the state's copy, the tree walk (selection and
    expansion: :func:`.ismcts.walker`'s walk, and the root's preparation), the playout, the
    rewards, and the backup (from the rewards to the next iteration's determinisation: the
    backup loop and the loop's budget and cancel checks). "other" is the rest of the loop
    and the timers' own cost."""
    args, kwargs, rng_state = call
    rng = random.Random()
    rng.setstate(rng_state)
    timeline = Timeline()
    args = (args[0], timeline.timed("sample", args[1]), rng, *args[3:])
    with instrumented(timeline, leaves):
        timeline.start()
        result = ismcts.search(*args, **kwargs)
        timeline.switch("other")  # the end
    return result, timeline


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
    from clans_pi.compiled.library import python_path

    with python_path():  # the Python search's parts (the docstring)
        return _main(argv)


def _main(argv: Sequence[str] | None) -> dict:
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
                rates, other_rates, part_runs, part_iterations = [], [], [], []
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
                    if not args.no_parts:  # the leaves of the first run only
                        check, timeline = parts(call, None if leaves else leaves)
                        assert (check.move, check.visits) == (result.move, result.visits), (
                            "the timers changed what the search does"
                        )
                        # Each of the real search's iterations played a game out once.
                        assert timeline.calls["playout"] == check.iterations == result.iterations
                        part_runs.append(timeline.times)
                        part_iterations.append(check.iterations)
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
                        p: round(1e6 * med[p] / statistics.median(part_iterations), 2)
                        for p in PARTS
                    }
                    row["copy_playout_us"] = round(
                        row["us_per_iteration"]["copy"] + row["us_per_iteration"]["playout"], 1
                    )
                    row["floor_copy_playout_us"] = round(floor_us(leaves), 1)
                    row["parts_iterations"] = part_iterations
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
