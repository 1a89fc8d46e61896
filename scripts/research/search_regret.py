#!/usr/bin/env python3
"""Judge search configurations against one large reference search: a quick, low-noise
stand-in for a tournament when comparing ways of spending the same iterations.

Positions come from seeded two-player games (Normal against Normal at 800 iterations a
move, every ``--every`` plies). At each, a Hard search of ``--reference`` iterations on one
process gives every root move the mean reward it found for the player to move: the
reference's value of the move. Each configuration then chooses a move from the same
player's view (``--reps`` times, with other random numbers); its **regret** is the
reference's best value minus the value of the move it chose. A move the reference tried
fewer than :data:`MIN_VISITS` times counts as the reference's worst well-tried move (or
its own value, if lower). Printed per configuration: the mean regret with its standard
error, and how often its regret was 0 (the reference's best move).

The yardstick is itself Hard (its widening and ordering), so it judges configurations
that change those settings by Hard's own lights: it ranked search sizes as the tournaments
did, but favoured narrower worker trees that then lost in play (docs/journal.md). Play
a tournament before believing a change of settings. Positions are every ``--every``-th ply
from the deal: with two players an even ``--every`` gives the first player's turns only.

A configuration is ``ITERATIONS[/WORKERS][:KEY=VALUE...]``: Hard with that many iterations
a move, split over ``WORKERS`` trees as the search workers split them (root parallel,
:mod:`clans_pi.bots.parallel`: each its share, its roots widened for all of them, the roots
merged), searched here one after the other so that the figures do not depend on the load.
Keys change Hard's search settings (:class:`clans_pi.bots.ismcts.Settings`): ``w``
(widening), ``c`` (exploration), ``order_after``, ``margin`` (margin weight). Trees are not
kept from move to move (each position is searched afresh).

Usage::

    .venv/bin/python scripts/research/search_regret.py --games 6 --every 5 --reference 40000 \\
        --jobs 2 10000 6000 4500 2500/3 2500/3:w=0.25

``--cache FILE`` keeps the reference searches (the expensive part) in a JSON-lines file,
so that later runs over the same positions search only the configurations.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import statistics
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from clans_pi.bots import make_bot  # noqa: E402
from clans_pi.bots.base import Budget  # noqa: E402
from clans_pi.bots.ismcts import Result, decode  # noqa: E402
from clans_pi.bots.parallel import Job, RootStats, merge, run_job, split, worker_job  # noqa: E402
from clans_pi.bots.search_bot import LEVEL_SETTINGS, LevelSettings, SearchBot  # noqa: E402
from clans_pi.rules.board import load_default_board  # noqa: E402
from clans_pi.rules.epochs import load_default_chart  # noqa: E402
from clans_pi.rules.moves import Move  # noqa: E402
from clans_pi.rules.observation import Observation  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402

BOARD, CHART = load_default_board(), load_default_chart()
PLAYERS = ("a", "b")
#: The games' moves: Normal at this many iterations (reproducible on any machine).
GAME_ITERATIONS = 800
#: A move the reference tried fewer times than this has no value of its own worth trusting.
MIN_VISITS = 20
#: The reference's random numbers; a configuration's repetition r uses CONFIG_SEED + r.
REFERENCE_SEED = 1
CONFIG_SEED = 1000
SETTING_KEYS = {"w": "widening", "c": "exploration", "order_after": "order_after",
                "margin": "margin_weight"}

#: The reference's values: move -> (visits, mean reward for the player to move).
Values = dict[Move, tuple[int, float]]


@dataclass(frozen=True)
class Config:
    """One way of searching: ``label`` as given, Hard's settings, its iterations a move and
    the trees they are split over."""

    label: str
    settings: LevelSettings
    iterations: int
    workers: int


def parse_config(text: str) -> Config:
    """``ITERATIONS[/WORKERS][:KEY=VALUE...]`` (see the module docstring)."""
    head, *options = text.split(":")
    its, _, workers = head.partition("/")
    try:
        iterations, trees = int(its), int(workers or 1)
    except ValueError:
        iterations = trees = 0
    if iterations < 1 or trees < 1:
        raise SystemExit(f"search_regret.py: {text!r}: expected ITERATIONS[/WORKERS], "
                         "e.g. 2500/3")
    search = LEVEL_SETTINGS["hard"].search
    for option in options:
        key, _, value = option.partition("=")
        if key not in SETTING_KEYS:
            raise SystemExit(f"search_regret.py: {text!r}: unknown setting {key!r}: one of "
                             f"{', '.join(SETTING_KEYS)}")
        try:
            number: float = int(value) if key == "order_after" else float(value)
        except ValueError:
            number = math.nan
        if not math.isfinite(number) or number < 0:
            raise SystemExit(f"search_regret.py: {text!r}: {key}={value!r} is not a "
                             "number of 0 or more")
        search = replace(search, **{SETTING_KEYS[key]: number})
    # The search alone: the move it prefers, not one the hiding term trades for secrecy.
    settings = replace(LEVEL_SETTINGS["hard"], search=search, reuse=False, hiding=0.0)
    return Config(text, settings, iterations, trees)


class InProcessPool:
    """The search workers' root-parallel search (:meth:`.parallel.SearchPool.search` at an
    iteration budget), each worker's share searched here in turn."""

    usable = True

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def ready(self, timeout: float = 0.0) -> bool:
        return True

    def search(self, job: Job, *, iterations: int | None = None,
               deadline: float | None = None, cancel: object = None,
               meanwhile: Callable[[], object] | None = None) -> Result:
        assert iterations is not None, "an iteration budget: the figures must not depend on time"
        if meanwhile is not None:  # what the game's process does while the workers search
            meanwhile()  # (hiding's reading: not with this script's configurations, hiding 0)
        shares = split(iterations, self.workers)
        job = worker_job(job, sum(share != 0 for share in shares))
        parts = [RootStats.of(run_job(job, BOARD, CHART, {}, part=k, iterations=share))
                 for k, share in enumerate(shares) if share]
        return merge(parts)


def chooser(config: Config, seed: int) -> SearchBot:
    pool = InProcessPool(config.workers) if config.workers > 1 else None
    return SearchBot(BOARD, CHART, level="hard", seed=seed,
                     budget=Budget(iterations=config.iterations), settings=config.settings,
                     pool=pool)  # type: ignore[arg-type]


def game_views(task: tuple[int, int, int]) -> list[tuple[int, Observation]]:
    """Every ``every``-th position of one seeded game between two Normals, from the deal
    on, as (ply, the view of the player to move)."""
    seed, game, every = task
    state = deal(BOARD, PLAYERS, random.Random(f"regret:{seed}:{game}"), CHART)
    bots = [make_bot("normal", BOARD, CHART, seed=game * 7 + i,
                     budget=Budget(iterations=GAME_ITERATIONS)) for i in range(len(PLAYERS))]
    views = []
    while not state.is_over:
        p = state.current_player
        obs = state.observation(p)
        if state.ply % every == 0:
            views.append((state.ply, obs))
        state.play(bots[p].choose(obs))
    return views


def reference_values(obs: Observation, iterations: int) -> Values | None:
    """The reference search's visits and mean reward of every move it tried (None: a
    position with one move, which nothing searches, or none tried :data:`MIN_VISITS`
    times)."""
    bot = chooser(parse_config(str(iterations)), REFERENCE_SEED)
    bot.choose(obs)
    result = bot.last.result if bot.last is not None else None
    if result is None or result.root is None:
        return None
    root = result.root
    values = {decode(code, root.orders): (n, w / n)
              for code, n, w in zip(root.actions, root.n, root.w, strict=False)}
    return values if any(n >= MIN_VISITS for n, _ in values.values()) else None


def fingerprint(obs: Observation, reference: int) -> str:
    """What a reference search depends on: the position as its player sees it, the
    reference's iterations, random numbers and settings (the cache's key)."""
    what = (obs.players, obs.viewer, obs.own_clan, obs.initial_huts, obs.moves, reference,
            REFERENCE_SEED, LEVEL_SETTINGS["hard"])
    return hashlib.sha256(repr(what).encode()).hexdigest()[:32]


def regret(values: Values, move: Move) -> float:
    """The reference's best value minus its value of ``move`` (a move it hardly tried: its
    worst well-tried move's value, or the move's own if lower)."""
    trusted = [v for n, v in values.values() if n >= MIN_VISITS]
    best, floor = max(trusted), min(trusted)
    n, v = values.get(move, (0, floor))
    return best - (v if n >= MIN_VISITS else min(v, floor))


def _values_to_json(values: Values) -> list[list]:
    return [[m.src, m.dst, list(m.order) if m.order else None, n, v]
            for m, (n, v) in values.items()]


def _values_from_json(rows: list[list]) -> Values:
    return {Move(src, dst, tuple(order) if order else None): (n, v)
            for src, dst, order, n, v in rows}


def judge(task: tuple[tuple[int, int, int], Observation, str, list[Config], int, int,
                      list | None]) -> dict:
    """One position (``key``: its :func:`fingerprint`): the reference's values (unless
    cached) and each configuration's regrets."""
    position, obs, key, configs, reference, reps, cached = task
    values = _values_from_json(cached) if cached is not None \
        else reference_values(obs, reference)
    row: dict = {"position": list(position), "key": key, "regrets": {}}
    if values is None:
        return row
    row["values"] = _values_to_json(values)
    for config in configs:
        row["regrets"][config.label] = [
            regret(values, chooser(config, CONFIG_SEED + r).choose(obs)) for r in range(reps)]
    return row


def summary(rows: list[dict], labels: list[str]) -> list[tuple[str, float, float, float, int]]:
    """Per configuration: mean regret, its standard error, the share of best moves, and
    how many choices."""
    out = []
    for label in labels:
        xs = [x for row in rows for x in row["regrets"].get(label, [])]
        if not xs:
            continue
        se = statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
        out.append((label, statistics.mean(xs), se, sum(x == 0 for x in xs) / len(xs),
                    len(xs)))
    return out


def read_cache(path: Path) -> dict[str, list]:
    """The reference searches kept in ``path`` by their :func:`fingerprint` (none yet if
    it does not exist); a line this script did not write is an error naming it."""
    if path.is_dir() or not path.parent.is_dir():
        raise SystemExit(f"search_regret.py: --cache {path}: not a file in an existing "
                         "folder")
    cache: dict[str, list] = {}
    if not path.exists():
        return cache
    for number, line in enumerate(path.read_text().splitlines(), 1):
        try:
            row = json.loads(line)
            values = _values_from_json(row["values"])
            if not isinstance(row["key"], str) or not any(
                    n >= MIN_VISITS for n, _ in values.values()):
                raise ValueError
        except (ValueError, KeyError, TypeError):
            raise SystemExit(f"search_regret.py: {path}:{number}: not a reference search "
                             "this script wrote") from None
        cache[row["key"]] = row["values"]
    return cache


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("configs", nargs="+", help="ITERATIONS[/WORKERS][:KEY=VALUE...]")
    ap.add_argument("--games", type=int, default=6, help="seeded games (default 6)")
    ap.add_argument("--every", type=int, default=5, help="a position every N plies")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference", type=int, default=40_000,
                    help="the reference search's iterations (default 40000)")
    ap.add_argument("--reps", type=int, default=2, help="choices per configuration")
    ap.add_argument("--jobs", type=int, default=2, help="positions judged at once")
    ap.add_argument("--cache", type=Path, help="JSON lines of reference searches, kept")
    a = ap.parse_args(argv)
    configs = [parse_config(text) for text in a.configs]
    if min(a.games, a.every, a.reference, a.reps, a.jobs) < 1:
        raise SystemExit("search_regret.py: --games, --every, --reference, --reps and "
                         "--jobs must be 1 or more")
    cache = read_cache(a.cache) if a.cache is not None else {}
    rows = []
    with ProcessPoolExecutor(a.jobs) as ex:
        games = list(ex.map(game_views, [(a.seed, g, a.every) for g in range(a.games)]))
        keyed = [((a.seed, g, ply), obs, fingerprint(obs, a.reference))
                 for g, views in enumerate(games) for ply, obs in views]
        tasks = [(position, obs, key, configs, a.reference, a.reps, cache.get(key))
                 for position, obs, key in keyed]
        print(f"{len(tasks)} positions from {a.games} games, reference {a.reference} "
              "iterations", flush=True)
        for row in ex.map(judge, tasks):
            rows.append(row)
            key = row["key"]
            if a.cache is not None and "values" in row and key not in cache:
                cache[key] = row["values"]
                with a.cache.open("a") as f:
                    f.write(json.dumps({k: row[k] for k in ("key", "position",
                                                            "values")}) + "\n")
    print(f"{'configuration':28} {'mean regret':>11} {'± s.e.':>8} {'best move':>9} "
          f"{'choices':>7}")
    for label, mean, se, best, n in summary(rows, [c.label for c in configs]):
        print(f"{label:28} {mean:11.4f} {se:8.4f} {best:9.2f} {n:7d}")


if __name__ == "__main__":
    main()
