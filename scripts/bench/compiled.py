"""The compiled core against the Python path, side by side in one run on one core
(``scripts/bench/engine.py --compiled``).

* **playouts**: ``GameState.copy(stack=False)`` + ``GameState.playout`` from each of a
  seeded game's positions, against the core's copy + playout from the same positions
  (``cc_playouts``: a call per position, its playouts inside), playouts a second each;
* **search**: Hard's and Normal's search (:func:`clans_pi.bots.ismcts.search` and the
  core's, same settings, determinisations and seeds, an iteration budget) at the positions
  the engine benchmark's search decides, iterations a second each;
* **identical**: its own seeded games played move by move on both paths have the same
  legal moves and states, and its searches the same move, visits and rewards
  (:func:`clans_pi.bots.compiled_check.agrees`).

The two paths take turns within each of ``rounds`` rounds, so both see the same load; each
figure is the median over the rounds, each speed-up the ratio of the medians.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from clans_pi.bots import compiled_search, ismcts
from clans_pi.bots.base import assignments
from clans_pi.bots.compiled_check import agrees
from clans_pi.bots.search_bot import LEVEL_SETTINGS
from clans_pi.compiled import core, why_not
from clans_pi.compiled.library import python_path
from clans_pi.compiled.state import CoreRandom, CoreState
from clans_pi.rules.board import load_default_board
from clans_pi.rules.constants import CLAN_INDEX
from clans_pi.rules.epochs import load_default_chart
from clans_pi.rules.setup import deal

__all__ = ["compare"]

PLAYERS = ("a", "b", "c")
#: Plies of the seeded game whose positions the playouts start from.
PLAYOUT_PLIES = (0, 10, 20, 30, 40)
#: Iterations of each search (both paths: the same work).
SEARCH_ITERATIONS = {"hard": 2000, "normal": 2000}
#: Seeded games and searches the identity check plays on both paths.
CHECK_GAMES, CHECK_SEARCHES = 200, 40


def _positions(seed: int, plies: tuple[int, ...]) -> list:
    board, chart = load_default_board(), load_default_chart()
    rng = random.Random(seed)
    state = deal(board, PLAYERS, rng, chart)
    out = []
    for ply in plies:
        while state.ply < ply and not state.is_over:
            state.push_action(state.random_legal_action(rng.random), undo=False)
        if state.is_over:
            break
        out.append(state.copy(stack=False))
    return out


def _rate(work: Callable[[], int], seconds: float) -> float:
    """Units of ``work`` (it returns how many it did) a second, over about ``seconds``."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def _search_args(state, level: str):
    me = state.current_player
    hyps = [tuple(CLAN_INDEX[c] for c in h)
            for h in assignments(state.num_players, me, state.clan_of(me))]
    probs = [1.0 / len(hyps)] * len(hyps)
    if LEVEL_SETTINGS[level].belief_sampling:
        sampler = ismcts.weighted_sampler(hyps, probs)
    else:
        sampler = ismcts.uniform_sampler(hyps)
    return sampler, LEVEL_SETTINGS[level].search, ismcts.clan_weights(hyps, probs)


def compare(seconds: float, rounds: int, seed: int) -> dict[str, object]:
    """The figures of the module docstring, as the benchmark's JSON keys."""
    lib = core()
    if lib is None:
        raise SystemExit(f"engine.py --compiled: {why_not()}")
    starts = _positions(seed, PLAYOUT_PLIES)
    cstarts = [CoreState.of(lib, s) for s in starts]
    scratch = cstarts[0].copy()
    rand = random.Random(seed).random
    crandom = CoreRandom(lib, random.Random(seed))
    per_call = 64  # the core's playouts a call, from each position

    def python_playouts() -> int:
        for start in starts:
            start.copy(stack=False).playout(rand)
        return len(starts)

    def compiled_playouts() -> int:
        for c in cstarts:
            lib.cc_playouts(c.buf, scratch.buf, c.board.buf, crandom.buf, per_call)
        return per_call * len(cstarts)

    search_positions = _positions(seed + 1, (0, 12, 24, 36, 48))
    search_iterations = {}

    def searcher(fn: Callable, level: str, *extra) -> Callable[[], int]:
        def run() -> int:
            done = 0
            for k, state in enumerate(search_positions):
                sampler, settings, weights = _search_args(state, level)
                result = fn(*extra, state, sampler, random.Random(k), settings,
                            iterations=SEARCH_ITERATIONS[level], clan_weights=weights)
                done += result.iterations
            search_iterations[level] = done
            return done
        return run

    rates: dict[str, list[float]] = {k: [] for k in (
        "playout_python", "playout_compiled", "hard_python", "hard_compiled",
        "normal_python", "normal_compiled")}
    for _ in range(rounds):
        rates["playout_python"].append(_rate(python_playouts, seconds))
        rates["playout_compiled"].append(_rate(compiled_playouts, seconds))
        for level in ("hard", "normal"):
            with python_path():  # the heuristic in Python too: the Python path as a whole
                rates[f"{level}_python"].append(_rate(searcher(ismcts.search, level),
                                                      seconds))
            rates[f"{level}_compiled"].append(
                _rate(searcher(compiled_search.search, level, lib), seconds))
    median = {k: statistics.median(v) for k, v in rates.items()}
    hard = median["hard_compiled"] / median["hard_python"]
    normal = median["normal_compiled"] / median["normal_python"]
    return {
        "speedup_playout": round(median["playout_compiled"] / median["playout_python"], 1),
        "speedup_search": round(min(hard, normal), 1),
        "speedup_search_hard": round(hard, 1),
        "speedup_search_normal": round(normal, 1),
        "identical": agrees(lib, seed, games=CHECK_GAMES, searches=CHECK_SEARCHES),
        "playouts_per_s_python": round(median["playout_python"]),
        "playouts_per_s_compiled": round(median["playout_compiled"]),
        "search_iterations_per_s_python": {"hard": round(median["hard_python"]),
                                           "normal": round(median["normal_python"])},
        "search_iterations_per_s_compiled": {"hard": round(median["hard_compiled"]),
                                             "normal": round(median["normal_compiled"])},
        "compiled_path": "playouts from positions at plies "
                         f"{list(PLAYOUT_PLIES)} of a seeded 3-player game; Hard's and "
                         f"Normal's search, {SEARCH_ITERATIONS['hard']:,} iterations at "
                         "plies [0, 12, 24, 36, 48] of another; both paths in turn, "
                         f"{rounds} rounds of {seconds:g} s each, one core",
        "compiled_library": lib.path.name,
    }
