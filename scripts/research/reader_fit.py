#!/usr/bin/env python3
"""Fit and check the reader of clans (clans_pi/bots/belief.py) on recorded games, per
population, at every move: the figures the after-game chart and the computers' guesses
stand on.

Games are recorded by ``scripts/research/belief_sweep.py play`` (one JSON line each: the
seats' levels and the record). The heuristic's values of every legal move for every clan
are worked out once per game and kept beside the games (``FILE.values.pkl``); reading
them again with other settings of the reader then takes seconds.

For every setting given (every combination of the values listed), and for every file
(a population: e.g. open levels only, hiding levels only, random movers, a mix), it prints
the seats' readings (each seat of every other player after every move, over the 4 clans it
may hold) and the onlooker's (5 clans): the Brier score against the uniform guess's, the
expected calibration error, how often the top guess was right, and with ``--table`` the
reliability table (bins of 0.1: count, mean probability, how often it came true); and
over all the files the fit's :func:`loss` and how many bins said more than came true.

The reader is belief.py's :class:`ReaderModel`, a mixture over kinds of player whose
weights the moves update, every weight and sharpness a parameter: ``open`` (plays for
their clan: softmax of the heuristic's value, DEFAULT_BETA, or ``beta_open``; its log ratio
times ``temper``), ``sharp`` (the same at ``beta_sharp``, times ``temper_sharp``),
``hide`` (plays for their clan while keeping down how plainly a reader sees it: softmax of
beta_hide times the value less gamma times that reader's probability of the clan; the
reader is an open one with ``--level 1``, belief.HIDING_AWARE with ``--level 2``; its log
ratio times ``temper_hide``) and aimless (the rest: uniform); ``max_odds`` caps the odds
between two clans. Its defaults are belief.OPEN_MODEL's. It gives the same readings as
belief.Belief with the same model (checked against hiding_calibration.py to three
decimals). ``--fit ROUNDS`` runs a coordinate descent on :func:`loss` over every file at
once; ``--likelihood LEVELS`` says instead how well the hiding kind explains those
levels' moves (:func:`likelihood`: the first step of the fit of 2026-11-28).

Usage::

    scripts/research/belief_sweep.py play --out open-101.jsonl --games 80 --players 2 3 4 \\
        --levels hard-open,normal-open,easy --budget hard=500 normal=150 --seed 101
    scripts/research/reader_fit.py open-101.jsonl hiding-101.jsonl \\
        --hide 0 0.3 --gamma 4 8 [--thin 3] [--table] [--json] [--fit 2]

The four populations of the journal's entries (2026-11-28, 2026-12-02), 240 games each
(80 per player count), seed 101 to fit, one ``play`` at a time (5 to 20 minutes each here;
random movers seconds). What the hiding and mix populations hold depends on the levels as
they were played: their hiders hide from the game's reader of the time. The game's reader
is checked on other games (seed 32) by scripts/bench/figures.py's calibration rows::

    for pop in random:random hiding:hard,normal open:hard-open,normal-open,easy \
            mix:hard,normal,easy,random; do
        nice -n 19 .venv/bin/python -m scripts.research.belief_sweep play \
            --out ${pop%%:*}-101.jsonl --games 80 --players 2 3 4 --levels ${pop#*:} \
            --budget hard=500 normal=150 --seed 101
    done
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import pickle
import sys
from itertools import permutations
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from clans_pi.bots import belief as belief_module  # noqa: E402
from clans_pi.bots.base import assignments  # noqa: E402
from clans_pi.bots.calibration import wilson  # noqa: E402
from clans_pi.rules.constants import CLAN_INDEX, CLANS, NUM_CLANS  # noqa: E402
from scripts.research.belief_sweep import evidence_data  # noqa: E402

PARAMS = ("epsilon", "beta_open", "open", "hide", "beta_hide", "gamma", "temper", "temper_hide",
          "sharp", "beta_sharp", "temper_sharp", "max_odds", "level")


def load(path: str) -> list[dict]:
    """The games of ``path`` with their move values (worked out once, then kept)."""
    cache = Path(path + ".values.pkl")
    if cache.exists() and cache.stat().st_mtime >= Path(path).stat().st_mtime:
        return pickle.loads(cache.read_bytes())
    games = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        game = json.loads(line)
        clans, data = evidence_data(game["record"])
        moves = []
        for mover, values, j, orders in data:
            ov = None if orders is None else (np.array(orders[0], float), orders[1])
            moves.append((mover, np.array(values, float), j, ov))
        games.append({"levels": game["levels"], "clans": clans, "moves": moves})
    cache.write_bytes(pickle.dumps(games))
    return games


def _softmax_cols(values: np.ndarray, beta: float) -> np.ndarray:
    """Column-wise softmax of ``beta * values`` (moves x clans)."""
    scaled = beta * values
    scaled = scaled - scaled.max(axis=0)
    e = np.exp(scaled)
    return e / e.sum(axis=0)


def _log_ratio(p: np.ndarray, n: int, eps: float) -> np.ndarray:
    return np.log(((1.0 - eps) * p + eps / n) * n)


def _logaddexp_rows(*terms: np.ndarray) -> np.ndarray:
    return np.logaddexp.reduce(np.stack(terms), axis=0)


def _open_exposure(rows: np.ndarray) -> np.ndarray:
    """belief.exposure of every row (moves x clans of summed log ratios), every clan:
    what an open reader (belief.py's model of 2026-11-27) gives each clan."""
    logs = np.logaddexp(math.log(belief_module.PURPOSEFUL) + rows,
                        math.log(1.0 - belief_module.PURPOSEFUL))
    floor = logs.max(axis=1, keepdims=True) - math.log(belief_module.MAX_ODDS)
    logs = np.maximum(logs, floor)
    logs = logs - logs.max(axis=1, keepdims=True)
    e = np.exp(logs)
    return e / e.sum(axis=1, keepdims=True)


#: The reader a hider of ``level`` 2 hides from: one that expects hiders of level 1
#: (who hide from an open reader), belief.py's first fit.
INNER = belief_module.HIDING_AWARE


def _inner_exposure(rows: np.ndarray, hid: np.ndarray) -> np.ndarray:
    """What :data:`INNER` gives each clan after each move (moves x clans), from the
    player's open rows and hide rows after it (no other kind)."""
    logs = _logaddexp_rows(math.log(INNER.open) + INNER.temper * rows,
                           math.log(INNER.hide) + hid,
                           np.full(rows.shape, math.log(INNER.aimless)))
    floor = logs.max(axis=1, keepdims=True) - math.log(belief_module.MAX_ODDS)
    logs = np.maximum(logs, floor)
    logs = logs - logs.max(axis=1, keepdims=True)
    e = np.exp(logs)
    return e / e.sum(axis=1, keepdims=True)


def player_logs(game: dict, s: dict) -> np.ndarray:
    """log P(each player's moves so far | clan), up to a constant per player, after every
    move: an array (moves + 1) x players x clans."""
    n = len(game["clans"])
    eps = s["epsilon"]
    w_open, w_hide = s["open"], s["hide"]
    w_sharp = s["sharp"]
    w_aim = 1.0 - w_open - w_hide - w_sharp
    assert w_aim >= -1e-9, s
    log_w = [math.log(w) if w > 0 else -math.inf
             for w in (w_open, w_hide, max(w_aim, 0.0), w_sharp)]
    kinds = np.zeros((3, n, NUM_CLANS))  # summed log ratio per kind, player, clan
    seen = np.zeros((n, NUM_CLANS))  # the open reader's row (what a hider hides from)
    inner = np.zeros((n, NUM_CLANS))  # the hide kind's row of the reader INNER (level 2)
    out = [np.zeros((n, NUM_CLANS))]
    for mover, values, j, orders in game["moves"]:
        m = len(values)
        base = _log_ratio(_softmax_cols(values, 1.0), m, belief_module.EPSILON)
        seen_order = np.zeros(NUM_CLANS)
        if orders is not None:
            ov, k = orders
            seen_order = _log_ratio(_softmax_cols(ov, 1.0)[k], len(ov), belief_module.EPSILON)
        if s["beta_open"] != 1.0:
            kinds[0, mover] += _log_ratio(_softmax_cols(values, s["beta_open"])[j], m,
                                          belief_module.EPSILON)
            if orders is not None:
                kinds[0, mover] += _log_ratio(_softmax_cols(ov, s["beta_open"])[k], len(ov),
                                              belief_module.EPSILON)
        if w_sharp > 0 and s["beta_sharp"] != 1.0:
            kinds[2, mover] += _log_ratio(_softmax_cols(values, s["beta_sharp"])[j], m,
                                          belief_module.EPSILON)
            if orders is not None:
                kinds[2, mover] += _log_ratio(_softmax_cols(ov, s["beta_sharp"])[k], len(ov),
                                              belief_module.EPSILON)
        if w_hide > 0:
            expo = _open_exposure(seen[mover] + base)  # moves x clans
            if s["level"] >= 2:  # a hider who hides from a reader that expects hiders
                inner_cols = INNER.temper_hide * _log_ratio(_softmax_cols(
                    INNER.beta_hide * values - INNER.gamma * expo, 1.0), m, eps)
                expo = _inner_exposure(seen[mover] + base, inner[mover] + inner_cols)
                inner[mover] += inner_cols[j]
            score = s["beta_hide"] * values - s["gamma"] * expo
            kinds[1, mover] += s["temper_hide"] * _log_ratio(_softmax_cols(score, 1.0)[j], m, eps)
        seen[mover] += base[j] + seen_order
        opened = seen if s["beta_open"] == 1.0 else kinds[0]
        keen = seen if s["beta_sharp"] == 1.0 else kinds[2]
        total = _logaddexp_rows(log_w[0] + s["temper"] * opened, log_w[1] + kinds[1],
                                np.full((n, NUM_CLANS), log_w[2]),
                                log_w[3] + s["temper_sharp"] * keen)
        out.append(total)
    return np.array(out)


_HYPS: dict = {}


def _hyps(n: int, viewer: int | None, clan: str | None) -> np.ndarray:
    key = (n, viewer, clan)
    if key not in _HYPS:
        hs = (assignments(n, viewer, clan) if viewer is not None
              else list(permutations(CLANS, n)))
        _HYPS[key] = np.array([[CLAN_INDEX[c] for c in h] for h in hs])
    return _HYPS[key]


def readings(game: dict, s: dict) -> dict[str, list[tuple[np.ndarray, int]]]:
    """Per reader kind: (probabilities over the clans it may give, index of the truth) for
    every move, player and reader, as hiding_calibration.py takes them."""
    logs = player_logs(game, s)[1:]  # after each move
    clans = game["clans"]
    n = len(clans)
    truth = [CLAN_INDEX[c] for c in clans]
    out: dict[str, list] = {"seat": [], "onlooker": []}
    max_odds = math.log(s["max_odds"]) if s["max_odds"] else math.inf
    for viewer in (*range(n), None):
        own = truth[viewer] if viewer is not None else None
        hyps = _hyps(n, viewer, clans[viewer] if viewer is not None else None)
        capped = logs.copy()
        if own is not None:
            mask = np.ones(NUM_CLANS, bool)
            mask[own] = False
            top = capped[:, :, mask].max(axis=2, keepdims=True)
        else:
            top = capped.max(axis=2, keepdims=True)
        capped = np.maximum(capped, top - max_odds)
        score = np.zeros((len(logs), len(hyps)))
        for p in range(n):
            if p != viewer:
                score += capped[:, p, hyps[:, p]]
        score -= score.max(axis=1, keepdims=True)
        probs = np.exp(score)
        probs /= probs.sum(axis=1, keepdims=True)
        kind = "seat" if viewer is not None else "onlooker"
        for p in range(n):
            if p == viewer:
                continue
            marg = np.zeros((len(logs), NUM_CLANS))
            for c in range(NUM_CLANS):
                marg[:, c] = probs[:, hyps[:, p] == c].sum(axis=1)
            keep = [c for c in range(NUM_CLANS) if c != own]
            t = keep.index(truth[p])
            out[kind].append((marg[:, keep], t))
    return out


def figures(rows: list[tuple[np.ndarray, int]]) -> dict:
    """Brier score, uniform's, ECE, top guess right, reliability (as hiding_calibration)."""
    probs = np.concatenate([r for r, _ in rows])
    onehot = np.concatenate([np.eye(r.shape[1])[np.full(len(r), t)] for r, t in rows])
    k = probs.shape[1]
    brier = float(((probs - onehot) ** 2).sum(axis=1).mean())
    top = float((probs.argmax(axis=1) == onehot.argmax(axis=1)).mean())
    p, y = probs.ravel(), onehot.ravel()
    bins = np.minimum((p * 10).astype(int), 9)
    # How many series (one reader's readings of one player through a game: a row) hold
    # a reading in each bin: the independent draws calibration.Bin.overconfident counts.
    series = np.zeros(10, int)
    for r, _ in rows:
        series[np.unique(np.minimum((r * 10).astype(int), 9))] += 1
    table, ece, over = [], 0.0, 0.0
    for b in range(10):
        sel = bins == b
        if sel.any():
            mean, seen = float(p[sel].mean()), float(y[sel].mean())
            ece += sel.sum() * abs(mean - seen)
            n = int(series[b])
            low, high = wilson(seen * n, n)
            # Further from the blind guess than came true (calibration.Bin.overconfident).
            beyond = mean - high if mean >= 1 / k else low - mean
            over += sel.sum() * max(0.0, beyond)
            table.append({"lo": b / 10, "hi": (b + 1) / 10, "count": int(sel.sum()),
                          "series": n, "mean": mean, "observed": seen,
                          "overconfident": beyond > 0})
    return {"readings": len(probs), "brier": brier, "uniform": (k - 1) / k,
            "ece": ece / len(p), "top_right": top, "reliability": table,
            "over": over / len(p)}


def evaluate(games: list[dict], s: dict) -> dict:
    by_kind: dict[str, list] = {"seat": [], "onlooker": []}
    for game in games:
        for kind, rows in readings(game, s).items():
            by_kind[kind] += rows
    return {kind: figures(rows) for kind, rows in by_kind.items()}


def likelihood(games: list[dict], levels: set[str], beta_hide: float, gamma: float,
               eps: float = belief_module.EPSILON) -> tuple[int, float, float]:
    """How well the hiding kind (``beta_hide``, ``gamma``) explains the moves of the players
    of ``levels``, their true clans known (fitting only): the moves, the mean log ratio of
    the move at the true clan over an aimless player's, and the mean evidence for the true
    clan (that log ratio less the log of its mean over the clans). gamma 0 is an open
    player at beta ``beta_hide``."""
    count, total, gap = 0, 0.0, 0.0
    for game in games:
        n = len(game["clans"])
        seen = np.zeros((n, NUM_CLANS))
        for mover, values, j, orders in game["moves"]:
            m = len(values)
            base = _log_ratio(_softmax_cols(values, 1.0), m, belief_module.EPSILON)
            if game["levels"][mover] in levels:
                expo = _open_exposure(seen[mover] + base)
                r = _log_ratio(_softmax_cols(beta_hide * values - gamma * expo, 1.0)[j], m, eps)
                c = CLAN_INDEX[game["clans"][mover]]
                count += 1
                total += r[c]
                gap += r[c] - math.log(np.exp(r).mean())
            if orders is not None:
                ov, k = orders
                seen[mover] += _log_ratio(_softmax_cols(ov, 1.0)[k], len(ov),
                                          belief_module.EPSILON)
            seen[mover] += base[j]
    return count, total / max(count, 1), gap / max(count, 1)


#: The weight of the calibration error in :func:`loss`, of its part above
#: :data:`ECE_GOAL` (the goal for every population), and of the readings' share that said
#: more than came true (beyond the 95 % interval, times how far).
ECE_WEIGHT = 2.0
ECE_GOAL, ECE_OVER_WEIGHT = 0.025, 20.0
OVER_WEIGHT = 100.0


def loss(results: dict) -> float:
    """What the fit keeps down: over every population and reader kind, the Brier score
    as a share of the uniform guess's, plus :data:`ECE_WEIGHT` times the calibration
    error, :data:`ECE_OVER_WEIGHT` times its part above :data:`ECE_GOAL`, and
    :data:`OVER_WEIGHT` times how far bins said more than came true."""
    return sum(f["brier"] / f["uniform"] + ECE_WEIGHT * f["ece"]
               + ECE_OVER_WEIGHT * max(0.0, f["ece"] - ECE_GOAL) + OVER_WEIGHT * f["over"]
               for res in results.values() for f in res.values())


STEPS = {"open": (0.5, 0.8, 1.25, 2.0), "hide": (0.5, 0.8, 1.25, 2.0),
         "beta_hide": (0.5, 0.8, 1.25, 2.0), "gamma": (0.5, 0.8, 1.25, 2.0),
         "temper": (0.7, 0.85, 1.15, 1.4), "temper_hide": (0.7, 0.85, 1.15, 1.4),
         "sharp": (0.5, 0.8, 1.25, 2.0), "temper_sharp": (0.7, 0.85, 1.15, 1.4),
         "beta_sharp": (0.7, 0.85, 1.15, 1.4), "max_odds": (0.8, 1.25, 2.0, 4.0)}


#: The fit keeps the odds cap (max_odds) at least this: below it no seat's reading of a
#: player could reach the chart's "Read from move k" (0.6 over 4 clans needs odds 4.5),
#: and the uniform guess, never wrong and never useful, is what a loss that punishes
#: over-confidence drifts to.
MIN_ODDS = 8.0


def fit(data: dict, s: dict, rounds: int) -> dict:
    """Coordinate descent on :func:`loss`: each parameter of STEPS in turn multiplied by
    each of its factors, the best kept; ``rounds`` times over."""
    def score(setting: dict) -> float:
        if (setting["open"] + setting["hide"] + setting["sharp"] > 1.0
                or min(setting.values()) < 0 or setting["max_odds"] < MIN_ODDS):
            return math.inf
        return loss({name: evaluate(games, setting) for name, games in data.items()})

    best = score(s)
    print(f"start {best:.4f} {s}", flush=True)
    for _ in range(rounds):
        for key, factors in STEPS.items():
            for f in factors:
                trial = {**s, key: s[key] * f}
                value = score(trial)
                if value < best - 1e-4:
                    best, s = value, trial
                    print(f"  {best:.4f} {key}={trial[key]:.4g}", flush=True)
        print(f"round {best:.4f} {s}", flush=True)
    return s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", help="files of recorded games (populations)")
    parser.add_argument("--epsilon", type=float, nargs="+", default=[belief_module.EPSILON],
                        help="uniform mixed into a hiding player's choice")
    parser.add_argument("--beta-open", type=float, nargs="+", default=[1.0],
                        help="an open player's beta (1: DEFAULT_BETA)")
    parser.add_argument("--open", type=float, nargs="+", default=[belief_module.PURPOSEFUL],
                        help="prior weight of an open player")
    parser.add_argument("--hide", type=float, nargs="+", default=[0.0],
                        help="prior weight of a hiding player")
    parser.add_argument("--beta-hide", type=float, nargs="+", default=[1.0])
    parser.add_argument("--gamma", type=float, nargs="+", default=[0.0])
    parser.add_argument("--temper", type=float, nargs="+", default=[1.0])
    parser.add_argument("--temper-hide", type=float, nargs="+", default=[1.0])
    parser.add_argument("--sharp", type=float, nargs="+", default=[0.0],
                        help="prior weight of an open player of their own beta")
    parser.add_argument("--temper-sharp", type=float, nargs="+", default=[0.3])
    parser.add_argument("--beta-sharp", type=float, nargs="+", default=[1.0],
                        help="the sharp kind's beta (1: DEFAULT_BETA)")
    parser.add_argument("--max-odds", type=float, nargs="+", default=[belief_module.MAX_ODDS])
    parser.add_argument("--level", type=int, nargs="+", default=[1], choices=(1, 2),
                        help="the hiders the hide kind expects: 1 hide from an open reader, "
                             "2 from one that expects hiders of level 1 (INNER)")
    parser.add_argument("--table", action="store_true")
    parser.add_argument("--likelihood", metavar="LEVELS",
                        help="instead: how well the hiding kind, for each --beta-hide and "
                             "--gamma, explains the moves of these levels (e.g. hard)")
    parser.add_argument("--thin", type=int, default=1, metavar="N",
                        help="every N-th game of each file only (a quicker look)")
    parser.add_argument("--fit", type=int, default=0, metavar="ROUNDS",
                        help="fit instead: coordinate descent from the first values given, "
                             "over every population at once (see loss())")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    data = {Path(p).name: load(p)[:: args.thin] for p in args.games}
    if args.likelihood:
        levels = set(args.likelihood.split(","))
        games = [g for gs in data.values() for g in gs]
        for bh, gamma in itertools.product(args.beta_hide, args.gamma):
            count, mean, gap = likelihood(games, levels, bh, gamma)
            print(f"beta_hide={bh:g} gamma={gamma:g}: {count} moves, mean log ratio at the "
                  f"true clan {mean:.3f}, evidence for it {gap:.3f}")
        return 0
    if args.fit:
        start = {k: getattr(args, k)[0] for k in PARAMS}
        fit(data, start, args.fit)
        return 0
    for values in itertools.product(*(getattr(args, k) for k in PARAMS)):
        s = dict(zip(PARAMS, values, strict=True))
        if s["open"] + s["hide"] + s["sharp"] > 1.0 + 1e-9:
            continue
        results = {name: evaluate(games, s) for name, games in data.items()}
        if args.json:
            print(json.dumps({"setting": s, "results": results}))
            continue
        print(" ".join(f"{k}={v:g}" for k, v in s.items()))
        over = sum(b["overconfident"] for res in results.values() for f in res.values()
                   for b in f["reliability"])
        print(f"  loss {loss(results):.3f}, bins over-confident {over}")
        for name, res in results.items():
            line = "  ".join(f"{kind} {f['brier']:.3f}/{f['uniform']:.3f} ece {f['ece']:.3f} "
                             f"top {f['top_right']:.3f}" for kind, f in res.items())
            print(f"  {name:22} {line}")
            if args.table:
                for kind, f in res.items():
                    print(f"    {kind}: " + "  ".join(
                        f"{b['lo']:.1f}:{b['count']}/{b['mean']:.2f}/{b['observed']:.2f}"
                        + ("!" if b["overconfident"] else "") for b in f["reliability"]))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
