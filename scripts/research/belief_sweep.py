#!/usr/bin/env python3
"""Tune the belief's honesty: how calibrated its end-of-game guesses are, for several
settings of its model, on the same recorded games.

``play`` plays seeded games between levels, as scripts/research/tournament.py does, and keeps each
game's record (deal, moves, clans, levels) as a line of JSON; its levels are the game's
(``hard``, ``normal``, ``easy``), ``random`` and ``hard-open`` / ``normal-open`` (the search
levels with their hiding switched off; budgets as for ``hard`` / ``normal`` unless given).
``sweep`` reads them back and,
for every setting given, works out the belief of every Hard or Normal seat about every other
player at the end (before the reveal) and prints its Brier score against the uniform guess,
the expected calibration error and the reliability of the top guess, per level read. The
heuristic's move values are computed once per game, so a sweep over many settings is quick.

Usage::

    scripts/research/belief_sweep.py play --out games.jsonl --games 40 --players 2 \\
        --levels hard,normal --budget hard=1500 normal=400
    scripts/research/belief_sweep.py sweep games.jsonl --beta 1 0.5 --epsilon 0.05 --temper 1 0.5

A setting is (beta, epsilon, purposeful, temper, max_odds): see clans_pi/bots/belief.py.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from clans_pi.bots import belief as belief_module  # noqa: E402
from clans_pi.bots import make_bot  # noqa: E402
from clans_pi.bots.base import assignments  # noqa: E402
from clans_pi.bots.calibration import (  # noqa: E402
    Guess,
    expected_calibration_error,
    outcomes,
    reliability,
    summarise,
    top_bands,
)
from clans_pi.bots.heuristic import clan_values, order_values  # noqa: E402
from clans_pi.bots.search_bot import LEVEL_SETTINGS, SearchBot  # noqa: E402
from clans_pi.rules import record  # noqa: E402
from clans_pi.rules.board import load_default_board  # noqa: E402
from clans_pi.rules.constants import CLAN_INDEX, CLANS, NUM_CLANS  # noqa: E402
from clans_pi.rules.epochs import load_default_chart  # noqa: E402
from clans_pi.rules.moves import Move  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402
from scripts.research.tournament import OPEN, RandomBot, parse_budgets, seat_levels  # noqa: E402

READERS = ("hard", "normal")


def play(args: argparse.Namespace) -> None:
    board, chart = load_default_board(), load_default_chart()
    levels = args.levels.split(",")
    budgets = parse_budgets(args.budget)
    with open(args.out, "a", encoding="utf-8") as out:
        for players in args.players:
            for index in range(math.ceil(args.games / players) * players):
                deal_no, rotation = divmod(index, players)
                names = tuple(f"p{i}" for i in range(players))
                state = deal(board, names,
                             random.Random(f"sweep:{args.seed}:{players}:{deal_no}"), chart,
                             random_first=False)
                at = seat_levels(levels, players, rotation)
                bots = []
                for i, level in enumerate(at):
                    seed = hash((args.seed, players, index, i)) & 0xFFFFFFFF
                    if level == "random":
                        bots.append(RandomBot(board, chart, seed))
                    elif level in OPEN:  # the search level with its hiding switched off
                        base = OPEN[level]
                        bots.append(SearchBot(
                            board, chart, level=base, seed=seed,
                            budget=budgets.get(level, budgets.get(base)),
                            settings=replace(LEVEL_SETTINGS[base], hiding=0.0)))
                    else:
                        bots.append(make_bot(level, board, chart, seed=seed,
                                             budget=budgets.get(level)))
                while not state.is_over:
                    p = state.current_player
                    state.play(bots[p].choose(state.observation(p)))
                out.write(json.dumps({"levels": at, "record": record.to_record(state)}) + "\n")
                out.flush()
                print(f"{players} players, game {index}: {','.join(at)}", file=sys.stderr)


# ------------------------------------------------------------------------------- sweep


def evidence_data(rec: dict) -> tuple[list[str], list]:
    """The game's true clans, and per move: the mover, the heuristic's values of every
    legal move for each clan with the index of the one made, and likewise for its village
    orders (None when it had no choice of order)."""
    board, chart = load_default_board(), load_default_chart()
    final = record.replay(rec, board, chart)
    moves = final.moves
    state = record.replay({**rec, "moves": []}, board, chart)
    data = []
    for move in moves:
        legal = state.legal_moves()
        pair = Move(move.src, move.dst)
        values = clan_values(state, legal)
        orders = None
        if len(state.village_orders(pair)) > 1:
            order = tuple(move.order) if move.order is not None else state.founds(pair)
            options = order_values(state, pair)
            orders = ([v for _, v in options], [o for o, _ in options].index(order))
        data.append((state.current_player, values, legal.index(pair), orders))
        state.push(move, undo=False)
    return list(final.clans), data


def softmax_at(values: list, c: int, j: int, beta: float) -> float:
    scaled = [beta * v[c] for v in values]
    top = max(scaled)
    exps = [math.exp(s - top) for s in scaled]
    return exps[j] / sum(exps)


def player_evidence(data: list, players: int, setting: dict) -> list[list[float]]:
    """Per player, per clan: log P(their moves | clan) up to a common constant, under
    ``setting`` (the model of belief.py, with ``temper`` and ``max_odds``)."""
    beta, eps, purposeful = setting["beta"], setting["epsilon"], setting["purposeful"]
    rows = [[0.0] * NUM_CLANS for _ in range(players)]
    for mover, values, j, orders in data:
        n = len(values)
        for c in range(NUM_CLANS):
            r = math.log(((1 - eps) * softmax_at(values, c, j, beta) + eps / n) * n)
            if orders is not None:
                ov, k = orders
                r += math.log(((1 - eps) * softmax_at(ov, c, k, beta) + eps / len(ov))
                              * len(ov))
            rows[mover][c] += r
    out = []
    for row in rows:
        logs = []
        for total in row:
            a, b = math.log(purposeful) + setting["temper"] * total, math.log(1 - purposeful)
            top = max(a, b)
            logs.append(top + math.log(math.exp(a - top) + math.exp(b - top)))
        out.append(logs)
    return out


def capped(logs: list[float], own: str, max_odds: float) -> list[float]:
    """``logs`` with none more than ``max_odds`` below the likeliest clan but ``own``."""
    if not max_odds:
        return logs
    floor = max(v for c, v in enumerate(logs) if CLANS[c] != own) - math.log(max_odds)
    return [max(v, floor) for v in logs]


def guesses_of(clans: list[str], levels: list[str], data: list, setting: dict
               ) -> list[tuple[str, Guess]]:
    """Every reader seat's end-of-game guess about every other player, with the two
    levels ("hard>easy": Hard reading Easy)."""
    players = len(clans)
    raw = player_evidence(data, players, setting)
    out = []
    for viewer in range(players):
        if levels[viewer] not in READERS:
            continue
        logs = [capped(row, clans[viewer], setting["max_odds"]) for row in raw]
        hyps = assignments(players, viewer, clans[viewer])
        weights = [sum(logs[p][CLAN_INDEX[h[p]]] for p in range(players) if p != viewer)
                   for h in hyps]
        top = max(weights)
        probs = [math.exp(w - top) for w in weights]
        total = sum(probs)
        for p in range(players):
            if p == viewer:
                continue
            dist = dict.fromkeys(CLANS, 0.0)
            for q, h in zip(probs, hyps, strict=True):
                dist[h[p]] += q / total
            out.append((f"{levels[viewer]}>{levels[p]}",
                        Guess.of(dist, clans[p], ruled_out=[clans[viewer]])))
    return out


def sweep(args: argparse.Namespace) -> None:
    games = []
    for path in args.games:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            game = json.loads(line)
            games.append((game["levels"], *evidence_data(game["record"])))
    print(f"{len(games)} games")
    names = ("beta", "epsilon", "purposeful", "temper", "max_odds")
    for values in itertools.product(args.beta, args.epsilon, args.purposeful, args.temper,
                                     args.max_odds):
        setting = dict(zip(names, values, strict=True))
        by_pair: dict[str, list[Guess]] = defaultdict(list)
        for levels, clans, data in games:
            for pair, guess in guesses_of(clans, levels, data, setting):
                by_pair[pair].append(guess)
                by_pair["all"].append(guess)
        print("\n" + " ".join(f"{k}={v:g}" for k, v in setting.items()))
        print(f"  {'reader>read':13} {'n':>5} {'Brier':>6} {'skill':>6} {'ECE':>6} {'top':>6} "
              f"{'p=1':>4}  top p bands <0.5 / 0.5-0.9 / >=0.9: n mean observed")
        for pair in (*sorted(k for k in by_pair if k != "all"), "all"):
            gs = by_pair[pair]
            s = summarise(gs)
            ece = expected_calibration_error(outcomes(gs))
            bands = "  ".join(f"{b.count} {b.mean:.2f} {b.observed:.2f}"
                              for b in top_bands(gs, (0.5, 0.9)))
            print(f"  {pair:13} {s.guesses:5d} {s.brier:6.3f} {s.skill:6.3f} {ece:6.3f} "
                  f"{s.top_right:6.3f} {s.certain:4d}  {bands}")
        if args.table:
            print("  all guesses: p bin, count, mean p, observed frequency")
            for b in reliability(outcomes(by_pair["all"])):
                if b.count:
                    print(f"    {b.lo:.1f}-{b.hi:.1f} {b.count:5d} {b.mean:6.3f} "
                          f"{b.observed:6.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play and record seeded games")
    p.add_argument("--out", required=True)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--players", type=int, nargs="+", default=[2], choices=(2, 3, 4))
    p.add_argument("--levels", default="hard,normal")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", nargs="*", default=[])
    s = sub.add_parser("sweep", help="the guesses' calibration for each setting")
    s.add_argument("games", nargs="+")
    s.add_argument("--beta", type=float, nargs="+", default=[belief_module.DEFAULT_BETA])
    s.add_argument("--epsilon", type=float, nargs="+", default=[belief_module.EPSILON])
    s.add_argument("--purposeful", type=float, nargs="+", default=[belief_module.PURPOSEFUL])
    s.add_argument("--temper", type=float, nargs="+", default=[1.0],
                   help="a power on a purposeful player's likelihood (1: belief.py's model)")
    s.add_argument("--max-odds", type=float, nargs="+", default=[belief_module.MAX_ODDS],
                   help="largest odds between two clans of one player (0: none)")
    s.add_argument("--table", action="store_true", help="print the reliability table too")
    args = parser.parse_args(argv)
    play(args) if args.command == "play" else sweep(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
