#!/usr/bin/env python3
"""Measure the computer players' strength: seeded games between chosen levels.

Each game is played from the players' own observations only (R22), exactly as in the app.
``--levels`` lists the levels for the seats of one game in turn order, cycled to the number
of players (``hard,normal`` with 3 players is hard, normal, hard; ``hard,normal,normal``
pits one Hard against two Normals). Fairness: each deal is played ``players`` times, the
levels rotated one turn position further each time, so every level plays every clan and
every turn position (first player included) of the same deal equally often.

Printed per level, over all its seats in all games:

* **win rate**: a win shared by k tied players (R21) counts 1/k; the rate is the sum of
  these shares over the level's seat-games, with a 95 % Wilson score interval (shares
  treated as fractional successes). Chance is 1/players.
* **guess accuracy** at the end of each game (before the reveal is looked at): for every
  other player, 1 if the bot's most probable clan for them is right (1/t for a t-way tie),
  averaged over all (bot, other player) pairs, with a Wilson interval, and the mean
  probability the bot gave the true clan. Chance: each other player holds one of the 4
  clans that are not the bot's own, so 0.25 for both.
* **move time**: wall time of ``choose`` (rebuilding the game, belief update and search),
  median, 99th percentile and maximum; search iterations per move (median) and per second
  of the moves that searched (a move with a single choice is made without searching).

And per (reader, read) pair of levels, the **calibration** of those end-of-game guesses
(clans_pi/bots/calibration.py): the Brier score against the uniform guess's (0.75 for 4
possible clans) and the skill score, the reliability table of every probability given to a
clan the other player may hold (count, mean probability, how often it was the true clan),
the top guesses by the reveal screen's words ("a guess", "likely", "sure"), and how many
probabilities were exactly 1 (none should be: only the reveal makes a clan certain, R20).

And per level, its **readability** as seen by each level that reads: how often
that reader's top guess of its clan at the end was right (ties shared, with a 95 % Wilson
interval) and the mean probability the reader gave its true clan, per reader and over all
the other levels' readers together (``other levels``; a level reading itself, as in
``hard,hard``, is its own row but not in that total). Lower is better hidden; chance 0.25
for both. Random movers and the peeking level are not readers (the one guesses uniformly,
the other was told).

And per level, **points** (R19): the mean score, and the mean margin over the best of the
other players' scores with a 95 % interval (what hiding costs, or gains, in points); and
**the after-game reading** of its clan (clans_pi.history.hiding, the chart the table sees
after the game): the table's mean probability on its true clan over its game's moves, at
the end, and the share of games that ended with the clan read (0.6 or more).

Usage::

    .venv/bin/python scripts/research/tournament.py --games 200 --players 2 --levels hard,normal \\
        --seed 1 --jobs 2 [--budget hard=2000 normal=0.2s]

``--budget LEVEL=N`` gives a level N search iterations a move (reproducible on any
machine); ``LEVEL=Xs`` gives it X seconds; without it a level uses its default. Levels:
easy, normal, hard, random (a uniformly random legal move and village order), peeking
(Hard told every player's true clan, for measuring only: scripts/research/peeking.py) and
peeking-normal (Normal's search told them), hard-open and normal-open (Hard and Normal as
they were before they hid their clan: what hiding is measured against), hard-naive and
normal-naive (Hard and Normal reading the others, and hiding from them, as if every player
played in the open, clans_pi.bots.belief.OPEN_MODEL: as they were before the game's reader
expected hiders), and hiding (Hard with ``--hiding W`` as its weight on
being read; Hard's own without it).

**Budgets named after machines.** ``--budget pi`` gives Hard the iterations a Raspberry
Pi 4 core searches in its time a move (1 s) with the compiled core: the iterations per
second one core searches here over whole games (:data:`HERE`) divided by
:data:`PI_FACTOR`; ``--budget desktop`` what one core here searches. Normal searches a
fixed number of iterations (``NORMAL_ITERATIONS``) on any machine. ``pi-python`` and
``desktop-python`` are the same machines on the Python path (:data:`HERE_PYTHON`, Normal
0.2 s a move): the levels as they were before the compiled core, and on a Pi without a C
compiler. All are iteration counts, so a tournament plays the same games on any machine.
``--workers N`` searches with N worker processes per computer (root parallel, as
``[computer] workers`` at the table); with a named budget each worker gets the per-core
budget, as each core of the Pi searches for the same time.

A level may carry its own budget and workers, ``LEVEL[@BUDGET][/WORKERS]``, so that one
level can meet itself: ``--levels hard@pi/3,hard@desktop-python`` is Hard on a Pi 4 with 3
workers and the compiled core against Hard on one core here on the Python path (BUDGET:
a named one, N iterations or Xs).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from clans_pi.bots import LEVELS, make_bot  # noqa: E402
from clans_pi.bots.base import Budget, rebuild  # noqa: E402
from clans_pi.bots.belief import OPEN_MODEL  # noqa: E402
from clans_pi.bots.calibration import (  # noqa: E402
    LIKELY,
    SURE,
    Guess,
    outcomes,
    reliability,
    summarise,
    top_bands,
    wilson,
)
from clans_pi.bots.parallel import SearchPool  # noqa: E402
from clans_pi.bots.random_mover import RandomMover  # noqa: E402
from clans_pi.bots.search_bot import LEVEL_SETTINGS, SearchBot  # noqa: E402
from clans_pi.history.hiding import READ, analyse  # noqa: E402
from clans_pi.rules.board import Board, load_default_board  # noqa: E402
from clans_pi.rules.constants import CLANS  # noqa: E402
from clans_pi.rules.epochs import EpochChart, load_default_chart  # noqa: E402
from clans_pi.rules.moves import Move  # noqa: E402
from clans_pi.rules.observation import Observation  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402
from scripts.research.peeking import LEVEL as PEEKING  # noqa: E402
from scripts.research.peeking import LEVEL_NORMAL as PEEKING_NORMAL  # noqa: E402
from scripts.research.peeking import SEARCHES_AS as PEEKING_SEARCHES_AS  # noqa: E402
from scripts.research.peeking import PeekingBot  # noqa: E402

#: Hard with a weight on being read of its own (LevelSettings.hiding, --hiding).
HIDING = "hiding"
#: The search levels as they were before they hid (LevelSettings.hiding 0: what
#: hiding is measured against).
OPEN = {"hard-open": "hard", "normal-open": "normal"}
#: The search levels reading the others, and hiding from them, as if every player played
#: their clan in the open (belief.OPEN_MODEL; LevelSettings.reader and hides_from): the
#: levels before the game's reader expected hiders.
NAIVE = {"hard-naive": "hard", "normal-naive": "normal"}
#: Their weights on being read, as they were then (the open reader's readings swing more
#: a move than the game's reader's).
NAIVE_WEIGHTS = {"hard-naive": 1.0, "normal-naive": 0.3}
ALL_LEVELS = ("random", *LEVELS, HIDING, *OPEN, *NAIVE, PEEKING, PEEKING_NORMAL)
#: Levels whose guesses are not readings of the table (uniform, or told the truth).
NOT_READERS = ("random", PEEKING, PEEKING_NORMAL)

#: How many times slower one core of a Raspberry Pi 4 runs this project's Python than one
#: core of this machine (docs/computer-players.md: the n-body benchmark took 158 s on a
#: Pi 4 at 1.5 GHz and 37 s here, 4.3 times; a Pi 4 at 1.8 GHz, as sold since 2020, is
#: about 3.6 times slower. 4 is the factor every Pi figure of the journal uses, for the
#: compiled core too: not measured on a Pi).
PI_FACTOR = 4.0
#: Iterations per second one core searches here over whole games, per level: the iter/s
#: column of this script at the default (seconds) budgets, Hard against Normal
#: (docs/journal.md). The compiled core, 2026-12-02: about 417,000 for Hard and 609,000
#: for Normal; the Python path, 2026-11-24: about 10,000 and 11,000 (shorter searches,
#: less ordering).
HERE = {"hard": 417_000, "normal": 609_000}
HERE_PYTHON = {"hard": 10_000, "normal": 11_000}
#: Each level's time a move at the table (bots.search_bot.LEVEL_SETTINGS): Hard thinks for
#: a time; Normal searches a fixed number of iterations (NORMAL_ITERATIONS).
THINK_SECONDS = {"hard": 1.0}
#: Before the compiled core, Normal thought for 0.2 s a move (the ``-python`` budgets).
THINK_SECONDS_PYTHON = {"hard": 1.0, "normal": 0.2}
#: ``pi`` and ``desktop``: a Pi 4 core and a core here with the compiled core; with
#: ``-python``, on the Python path (what the table had before the compiled core, and what
#: a Pi without a C compiler has).
NAMED_BUDGETS = ("pi", "desktop", "pi-python", "desktop-python")
#: A level that searches as another does (its budgets are that level's).
SEARCHES_AS = {**PEEKING_SEARCHES_AS, HIDING: "hard", **OPEN, **NAIVE}


class RandomBot:
    """The random mover behind the bot interface: a uniformly random legal move and order;
    it guesses nothing (uniform over the clans it cannot rule out)."""

    level = "random"

    def __init__(self, board: Board, chart: EpochChart, seed: int) -> None:
        self.board, self.chart = board, chart
        self.mover = RandomMover(seed)

    def choose(self, obs: Observation, *, cancel: object = None) -> Move:
        return self.mover.choose(rebuild(obs, self.board, self.chart))

    def guess(self, obs: Observation) -> dict[int, dict[str, float]]:
        others = [c for c in CLANS if c != obs.own_clan]
        return {
            i: {c: (0.25 if c in others else 0.0) for c in CLANS}
            for i in range(len(obs.players))
            if i != obs.viewer
        }


@dataclass
class SeatResult:
    """One seat of one game."""

    level: str
    share: float  # of the win (R21)
    correct: float  # top guesses right, summed over the other players
    true_prob: float  # probability given to the true clans, summed over the other players
    others: int
    times: list[float] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)
    searched: float = 0.0  # seconds of the moves that searched (not the single choices)
    #: The guess at the end about each other player, with that player's level.
    guesses: list[tuple[str, Guess]] = field(default_factory=list)
    score: int = 0  # points at the end (R19)
    margin: int = 0  # score less the best of the other players' scores
    #: The after-game reading of this player (clans_pi.history.hiding): the table's mean
    #: probability on its true clan over the game's moves, and at the end.
    read_mean: float = 0.0
    read_end: float = 0.0


def seat_levels(levels: list, players: int, rotation: int) -> list:
    """The level at each turn position for one rotation of the seating."""
    pattern = [levels[i % len(levels)] for i in range(players)]
    return [pattern[(i + rotation) % players] for i in range(players)]


@dataclass(frozen=True)
class Spec:
    """One level as the tournament plays it: ``label`` (as given, e.g. ``hard@pi/3``), the
    bot's level, its budget (None: the level's default) and its search workers."""

    label: str
    level: str
    budget: Budget | None
    workers: int
    hiding: float | None = None  # the hiding level's weight (None: Hard's own)


def named_budget(name: str, level: str, workers: int) -> Budget:
    """``pi`` or ``desktop`` (``-python``: on the Python path): the iterations ``workers``
    cores of that machine search in ``level``'s time a move (each worker its share); a level
    with fixed iterations (Normal) has those on any machine and any workers (the table
    shares them out). Peeking searches as Hard does."""
    level = SEARCHES_AS.get(level, level)
    machine, _, path = name.partition("-")
    here, think = (HERE_PYTHON, THINK_SECONDS_PYTHON) if path == "python" \
        else (HERE, THINK_SECONDS)
    if level not in think:
        iterations = LEVEL_SETTINGS[level].budget.iterations
        assert iterations is not None, f"{level} has neither a time nor iterations"
        return Budget(iterations=iterations)
    per_core = here[level] * think[level]
    if machine == "pi":
        per_core /= PI_FACTOR
    return Budget(iterations=max(1, round(per_core)) * workers)


def parse_budget(value: str, where: str) -> Budget | str:
    """N iterations, Xs seconds, or a named budget (returned as its name)."""
    if value in NAMED_BUDGETS:
        return value
    try:
        if value.endswith("s"):
            return Budget(seconds=float(value[:-1]))
        return Budget(iterations=int(value))
    except ValueError:
        raise SystemExit(f"tournament.py: {where}: {value!r} is not N, Xs or one of "
                         f"{', '.join(NAMED_BUDGETS)}") \
            from None


def parse_spec(text: str, budgets: dict[str, Budget | str], workers: int) -> Spec:
    """``LEVEL[@BUDGET][/WORKERS]``; what it leaves out comes from --budget and --workers."""
    rest, _, count = text.partition("/")
    level, _, budget_text = rest.partition("@")
    if level not in ALL_LEVELS:
        raise SystemExit(f"tournament.py: unknown level {level!r} in {text!r}: one of "
                         f"{', '.join(ALL_LEVELS)}")
    if count:
        if not count.isdigit() or not 1 <= int(count) <= 64:
            raise SystemExit(f"tournament.py: {text!r}: workers must be 1 to 64, not "
                             f"{count!r}")
        workers = int(count)
    searching = SEARCHES_AS.get(level, level) in HERE
    if not searching:
        workers = 1
    budget = parse_budget(budget_text, text) if budget_text else \
        budgets.get(level, budgets.get("*"))
    if isinstance(budget, str):
        budget = named_budget(budget, level, workers) if searching else None
    return Spec(text, level, budget, workers)


#: This process's search pools, by worker count (a tournament's game processes keep theirs).
_POOLS: dict[int, SearchPool] = {}


def _pool(workers: int, board: Board, chart: EpochChart) -> SearchPool | None:
    if workers < 2:
        return None
    pool = _POOLS.get(workers)
    if pool is None:
        pool = _POOLS[workers] = SearchPool(workers, board, chart)
        pool.ready(120)
    return pool


def play_game(task: tuple[int, int, list[Spec], int]) -> list[SeatResult]:
    """Play game ``index`` of a tournament; return each seat's result."""
    index, players, levels, seed = task
    board, chart = load_default_board(), load_default_chart()
    deal_no, rotation = divmod(index, players)
    names = tuple(f"p{i}" for i in range(players))
    # The same deal for each rotation; the first player is fixed (turn position 0) and the
    # levels rotate over the positions instead (R7's randomness lives in the rotation).
    state = deal(board, names, random.Random(f"deal:{seed}:{players}:{deal_no}"), chart,
                 random_first=False)
    at = seat_levels(levels, players, rotation)
    bots = []
    for i, spec in enumerate(at):
        bot_seed = hash((seed, players, index, i)) & 0xFFFFFFFF
        if spec.level == "random":
            bots.append(RandomBot(board, chart, bot_seed))
        elif spec.level in PEEKING_SEARCHES_AS:  # told the real game's clans
            bots.append(PeekingBot(board, chart, state.clans, seed=bot_seed,
                                   budget=spec.budget, pool=_pool(spec.workers, board, chart),
                                   level=spec.level))
        elif (weight := weight_of(spec)) is not None:  # a search level: with its weight
            level = SEARCHES_AS.get(spec.level, spec.level)
            naive = OPEN_MODEL if spec.level in NAIVE else None
            settings = replace(LEVEL_SETTINGS[level], hiding=weight, reader=naive,
                               hides_from=naive)
            bot = SearchBot(board, chart, level=level, seed=bot_seed, budget=spec.budget,
                            settings=settings, pool=_pool(spec.workers, board, chart))
            bot.level = spec.level
            bots.append(bot)
        else:
            bots.append(make_bot(spec.level, board, chart, seed=bot_seed, budget=spec.budget))
    results = [SeatResult(spec.label, 0.0, 0.0, 0.0, players - 1) for spec in at]
    while not state.is_over:
        p = state.current_player
        obs = state.observation(p)
        start = time.monotonic()
        move = bots[p].choose(obs)
        results[p].times.append(time.monotonic() - start)
        last = getattr(bots[p], "last", None)
        if last is not None and last.iterations:
            results[p].iterations.append(last.iterations)
            results[p].searched += last.seconds
        state.play(move)  # checked: an illegal move stops the tournament
    winners = state.winners()
    clans = state.clans
    scores = state.scores()
    hiding = analyse(state)
    for i, bot in enumerate(bots):
        r = results[i]
        r.share = 1.0 / len(winners) if i in winners else 0.0
        r.score = scores[i]
        r.margin = scores[i] - max(s for j, s in enumerate(scores) if j != i)
        curve = hiding.players[i].table
        r.read_mean = statistics.fmean(curve[1:])
        r.read_end = curve[-1]
        # The guess from play alone: the reveal's clans taken out, as the reveal screen does.
        seen = replace(state.observation(i), revealed_clans=None, scores=None)
        guess = bot.guess(seen)
        for j in range(players):
            if j == i:
                continue
            probs = guess[j]
            top = max(probs.values())
            tops = [c for c, q in probs.items() if q == top]
            r.correct += (clans[j] in tops) / len(tops)
            r.true_prob += probs[clans[j]]
            r.guesses.append((at[j].label, Guess.of(probs, clans[j], ruled_out=[clans[i]])))
    return results


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def parse_budgets(items: list[str]) -> dict[str, Budget | str]:
    """``LEVEL=N``, ``LEVEL=Xs``, ``LEVEL=pi`` ... per level; a bare ``pi`` or ``desktop``
    for every level (key ``*``)."""
    out: dict[str, Budget | str] = {}
    for item in items:
        if item in NAMED_BUDGETS:
            out["*"] = item
            continue
        level, _, value = item.partition("=")
        if level not in ALL_LEVELS or not value:
            raise SystemExit(f"tournament.py: --budget {item!r}: expected LEVEL=N, LEVEL=Xs, "
                             "LEVEL=pi, pi or desktop")
        out[level] = parse_budget(value, f"--budget {item!r}")
    return out


def parse_weights(items: list[str]) -> dict[str, float]:
    """``hard=W`` and ``normal=W``: a search level's weight on being read (--weights)."""
    out: dict[str, float] = {}
    for item in items:
        level, _, value = item.partition("=")
        try:
            weight = float(value)
        except ValueError:
            weight = -1.0
        if level not in LEVEL_SETTINGS or not 0.0 <= weight <= 100.0:
            raise SystemExit(f"tournament.py: --weights {item!r}: expected hard=W or "
                             "normal=W, W a number from 0 to 100")
        out[level] = weight
    return out


def with_weights(levels: list[Spec], hiding: float | None,
                 weights: dict[str, float]) -> list[Spec]:
    """The seats' specs with the weights on being read asked for: ``hiding`` (--hiding) for
    the hiding level, ``weights`` (--weights) per search level."""
    out = []
    for spec in levels:
        if spec.level == HIDING and hiding is not None:
            spec = replace(spec, hiding=hiding)
        elif spec.level in weights:
            spec = replace(spec, hiding=weights[spec.level])
        out.append(spec)
    return out


def weight_of(spec: Spec) -> float | None:
    """The weight on being read that ``spec`` plays with (None: a level that does not
    search): 0 for the open levels and the peeking ones, else its own or its level's."""
    if spec.level in OPEN or spec.level in PEEKING_SEARCHES_AS:
        return 0.0
    level = SEARCHES_AS.get(spec.level, spec.level)
    if level not in LEVEL_SETTINGS:
        return None
    if spec.hiding is not None:
        return spec.hiding
    return NAIVE_WEIGHTS.get(spec.level, LEVEL_SETTINGS[level].hiding)


def describe(spec: Spec) -> str:
    budget = spec.budget
    if spec.level == "random":
        return "no search"
    if budget is None:
        text = "default"
    elif budget.iterations is not None:
        text = f"{budget.iterations} iterations"
    else:
        text = f"{budget.seconds:g} s"
    return text + (f" on {spec.workers} workers" if spec.workers > 1 else "")


def report(players: int, levels: list[Spec], results: list[list[SeatResult]]) -> None:
    games = len(results)
    print(f"\n== {players} players, {games} games, levels per turn position: "
          f"{','.join(s.label for s in seat_levels(levels, players, 0))} (rotated) ==")
    by_level: dict[str, list[SeatResult]] = defaultdict(list)
    for game in results:
        for seat in game:
            by_level[seat.level].append(seat)
    chance = 1.0 / players
    print(f"{'level':16} {'seats':>5} {'win rate':>9} {'95% CI':>15}   (chance {chance:.3f})")
    for level, seats in by_level.items():
        wins = sum(s.share for s in seats)
        lo, hi = wilson(wins, len(seats))
        print(f"{level:16} {len(seats):5d} {wins / len(seats):9.3f}   [{lo:.3f}, {hi:.3f}]")
    print(f"\n{'level':16} {'guesses':>7} {'top right':>9} {'95% CI':>15} {'p(true)':>8}"
          "   (chance 0.250 for both)")
    for level, seats in by_level.items():
        n = sum(s.others for s in seats)
        right = sum(s.correct for s in seats)
        lo, hi = wilson(right, n)
        prob = sum(s.true_prob for s in seats) / n
        print(f"{level:16} {n:7d} {right / n:9.3f}   [{lo:.3f}, {hi:.3f}] {prob:8.3f}")
    print(f"\n{'level':16} {'moves':>6} {'median s':>9} {'p99 s':>7} {'max s':>7} "
          f"{'iter/move':>10} {'iter/s':>7}")
    for level, seats in by_level.items():
        times = [t for s in seats for t in s.times]
        iters = [k for s in seats for k in s.iterations]
        searched = sum(s.searched for s in seats)
        it = (f"{statistics.median(iters):10.0f} {sum(iters) / searched:7.0f}" if iters
              else f"{'-':>10} {'-':>7}")
        print(f"{level:16} {len(times):6d} {statistics.median(times):9.3f} "
              f"{percentile(times, 0.99):7.3f} {max(times):7.3f} {it}")
    print(f"\n{'level':16} {'score':>6} {'margin':>7} {'95% CI':>15}   (margin: its score "
          "less the best other player's, R19)")
    for level, seats in by_level.items():
        margins = [s.margin for s in seats]
        mean = statistics.fmean(margins)
        half = (1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
                if len(margins) > 1 else float("nan"))
        print(f"{level:16} {statistics.fmean(s.score for s in seats):6.1f} {mean:7.1f}   "
              f"[{mean - half:6.1f}, {mean + half:6.1f}]")
    print(f"\n{'level':16} {'read, mean':>10} {'at the end':>10} {'read (>=' + str(READ) + ')':>11}"
          "   (after the game, clans_pi.history.hiding: the table's probability on its "
          "true clan; blind 0.250)")
    for level, seats in by_level.items():
        read = sum(s.read_end >= READ for s in seats) / len(seats)
        print(f"{level:16} {statistics.fmean(s.read_mean for s in seats):10.3f} "
              f"{statistics.fmean(s.read_end for s in seats):10.3f} {read:11.3f}")
    report_calibration(results)
    report_readability(results)


def base_level(label: str) -> str:
    """The level of a label ``LEVEL[@BUDGET][/WORKERS]``."""
    return label.partition("/")[0].partition("@")[0]


def report_calibration(results: list[list[SeatResult]]) -> None:
    """For each (reader, read) pair of levels that guesses: the Brier score of the end-of-
    game guesses against the uniform guess's, the reliability table of every probability
    given to a possible clan, and the top guesses by the reveal screen's words."""
    pairs: dict[tuple[str, str], list[Guess]] = defaultdict(list)
    for game in results:
        for seat in game:
            if base_level(seat.level) in NOT_READERS:
                continue
            for read, guess in seat.guesses:
                pairs[(seat.level, read)].append(guess)
    print("\ncalibration of the guesses at the end (every probability given to a clan "
          "the other player may hold)")
    print(f"{'reader':16} {'read':16} {'guesses':>7} {'Brier':>6} {'uniform':>7} {'skill':>6} "
          f"{'top right':>9} {'p=1':>4}")
    for (reader, read), guesses in sorted(pairs.items()):
        s = summarise(guesses)
        print(f"{reader:16} {read:16} {s.guesses:7d} {s.brier:6.3f} {s.uniform:7.3f} "
              f"{s.skill:6.3f} {s.top_right:9.3f} {s.certain:4d}")
    for (reader, read), guesses in sorted(pairs.items()):
        print(f"\n{reader} reading {read}: p bin, count, mean p, observed frequency; "
              "then the top guesses by the reveal's words")
        for b in reliability(outcomes(guesses)):
            if b.count:
                print(f"  {b.lo:.1f}-{b.hi:.1f} {b.count:6d} {b.mean:7.3f} {b.observed:7.3f}")
        for b, word in zip(top_bands(guesses, (LIKELY, SURE)), ("a guess", "likely", "sure"),
                           strict=True):
            if b.count:
                print(f"  {word:9} {b.count:5d} {b.mean:7.3f} {b.observed:7.3f}   "
                      f"(top p {b.lo:.2f}-{b.hi:.2f})")


@dataclass(frozen=True)
class Readability:
    """How well ``reader`` read ``read`` at the end of the games: ``guesses`` end-of-game
    guesses, ``right`` of them with the true clan on top (ties shared), ``true_prob`` the
    probability given to the true clan, summed."""

    read: str
    reader: str
    guesses: int
    right: float
    true_prob: float

    @property
    def top_right(self) -> float:
        return self.right / self.guesses if self.guesses else float("nan")

    @property
    def mean_true(self) -> float:
        return self.true_prob / self.guesses if self.guesses else float("nan")


#: The reader of the row that adds up every other level's readers of a level.
OTHER_LEVELS = "other levels"


def readability(results: list[list[SeatResult]]) -> list[Readability]:
    """Per read level (labels in the order first met): a row per reader level that reads
    (not :data:`NOT_READERS`), sorted, then the :data:`OTHER_LEVELS` row (every reader
    whose label is not the read level's), when there is one."""
    pairs: dict[tuple[str, str], list[float]] = {}
    for game in results:
        for seat in game:
            if base_level(seat.level) in NOT_READERS:
                continue
            for read, guess in seat.guesses:
                top = max(guess.probs.values())
                tops = [c for c, p in guess.probs.items() if p == top]
                row = pairs.setdefault((read, seat.level), [0, 0.0, 0.0])
                row[0] += 1
                row[1] += (guess.truth in tops) / len(tops)
                row[2] += guess.probs[guess.truth]
    out = []
    for read in dict.fromkeys(seat.level for game in results for seat in game):
        rows = [Readability(read, reader, int(n), right, prob)
                for (r, reader), (n, right, prob) in sorted(pairs.items()) if r == read]
        out.extend(rows)
        others = [x for x in rows if x.reader != read]
        if others:
            out.append(Readability(read, OTHER_LEVELS, sum(x.guesses for x in others),
                                   sum(x.right for x in others),
                                   sum(x.true_prob for x in others)))
    return out


def report_readability(results: list[list[SeatResult]]) -> None:
    """The table of :func:`readability`."""
    print("\nreadability at the end: how well each level's clan was read, by each reader "
          "(lower is better hidden; chance 0.250 for both)")
    print(f"{'read':16} {'reader':16} {'guesses':>7} {'top right':>9} {'95% CI':>15} "
          f"{'p(true)':>8}")
    for r in readability(results):
        lo, hi = wilson(r.right, r.guesses)
        print(f"{r.read:16} {r.reader:16} {r.guesses:7d} {r.top_right:9.3f}   "
              f"[{lo:.3f}, {hi:.3f}] {r.mean_true:8.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2], choices=(2, 3, 4))
    parser.add_argument("--levels", default="hard,normal",
                        help=f"comma-separated, cycled over the seats; of {', '.join(ALL_LEVELS)}")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", nargs="*", default=[],
                        metavar="pi|desktop|pi-python|desktop-python|LEVEL=N|LEVEL=Xs|LEVEL=pi")
    parser.add_argument("--workers", type=int, default=1,
                        help="search worker processes per computer (root parallel)")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--hiding", type=float, default=None,
                        help="the hiding level's weight on being read (LevelSettings.hiding;"
                             " default: Hard's own)")
    parser.add_argument("--weights", nargs="*", default=[], metavar="LEVEL=W",
                        help="hard=W or normal=W: that level's weight on being read instead "
                             "of its default (LevelSettings.hiding)")
    args = parser.parse_args(argv)
    if not 1 <= args.workers <= 64:
        parser.error(f"--workers {args.workers}: 1 to 64")
    budgets = parse_budgets(args.budget)
    levels = [parse_spec(text, budgets, args.workers) for text in args.levels.split(",")]
    if args.hiding is not None and not any(s.level == HIDING for s in levels):
        parser.error(f"--hiding {args.hiding:g} is the hiding level's weight, and no seat "
                     "plays the hiding level (--levels hiding,...)")
    levels = with_weights(levels, args.hiding, parse_weights(args.weights))
    print("$", " ".join(getattr(sys, "orig_argv", sys.argv)))
    print("budgets:", ", ".join(
        f"{spec.label} {describe(spec)}" for spec in dict.fromkeys(levels)))
    weights = {s.label: weight_of(s) for s in levels}
    print("weights on being read:", ", ".join(
        f"{label} {w:g}" for label, w in weights.items() if w is not None))
    for players in args.players:
        # Whole rotations of each deal, so that every level sits everywhere equally often.
        games = math.ceil(args.games / players) * players
        tasks = [(g, players, levels, args.seed) for g in range(games)]
        start = time.monotonic()
        if args.jobs > 1:  # not multiprocessing.Pool: its daemonic workers cannot start
            # search workers of their own
            with ProcessPoolExecutor(args.jobs,
                                     mp_context=multiprocessing.get_context("spawn")) as pool:
                results = list(pool.map(play_game, tasks, chunksize=1))
        else:
            results = [play_game(t) for t in tasks]
        report(players, levels, results)
        print(f"({time.monotonic() - start:.0f} s with {args.jobs} job(s))")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
