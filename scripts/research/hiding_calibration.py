#!/usr/bin/env python3
"""Is the chart of how well each player hid honest? The calibration of the
after-game reading (clans_pi/history/hiding.py) over recorded tournament games.

Reads games kept by ``scripts/research/belief_sweep.py play`` (one JSON line each: the seats' levels
and the record), reads each with the hiding analysis, and for every move, every player and
every reader (each other seat; an onlooker separately), takes the probability the reader
put on each clan the player may hold (4 for a seat, 5 for an onlooker) with whether it was
the true clan. Prints the reliability table (bins of 0.1: count, mean probability, how
often right), the Brier score of the seats' readings against the uniform guess's (0.75)
and the expected calibration error; the same for the onlooker (uniform 0.8); and the
table's curve (the chart's line: the mean over the other seats of the probability on the
true clan) binned against how often a seat's top guess named the clan.

Usage::

    scripts/research/belief_sweep.py play --out games.jsonl --games 72 --players 2 3 4 \\
        --levels hard,normal,easy,random --budget hard=500 normal=150 --seed 32
    .venv/bin/python scripts/research/hiding_calibration.py games.jsonl [--every 1] [--json]

``--json`` prints the same figures as one JSON object instead (scripts/bench/figures.py
reads it): ``games``, and per reader kind ``readings``, ``probabilities``, ``brier``,
``uniform``, ``ece``, ``top_right``, ``reliability`` (per non-empty bin: ``lo``,
``hi``, ``count``, ``series``, ``mean``, ``observed``, ``overconfident``) and
``overconfident_bins``; and ``verdicts``: per verdict of the chart at the end (read,
suspected, hidden, misled) how many players got it, the line's mean end, how often the
other seats' top guess named the clan and their mean highest probability on a wrong clan
(what "Led the table astray" claims).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from clans_pi.bots.belief import (  # noqa: E402
    HIDING_AWARE,
    MODEL,
    OPEN_MODEL,
    Belief,
    ReaderModel,
)
from clans_pi.bots.calibration import (  # noqa: E402
    Guess,
    brier,
    expected_calibration_error,
    outcomes,
    reliability,
)
from clans_pi.history.hiding import SEAT_BLIND, verdict_of  # noqa: E402
from clans_pi.rules import record  # noqa: E402
from clans_pi.rules.board import load_default_board  # noqa: E402
from clans_pi.rules.constants import CLANS  # noqa: E402
from clans_pi.rules.epochs import load_default_chart  # noqa: E402
from clans_pi.rules.state import GameState  # noqa: E402

#: The readers ``--model`` can name.
MODELS = {"game": MODEL, "open": OPEN_MODEL, "hiding-aware": HIDING_AWARE}


def _read_along(rec: dict, model: ReaderModel):
    """Replay the game of ``rec`` with every seat's belief and an onlooker's: after each
    move, yield its number (from 1), the clans, the seats' beliefs and the onlooker's."""
    board, chart = load_default_board(), load_default_chart()
    final = record.replay(rec, board, chart, undo=False)
    n, clans = final.num_players, final.clans
    huts = {t: CLANS[c] for t, c in enumerate(final.initial_huts)}
    state = GameState(board, chart, final.players, clans, huts)
    seats = [Belief(n, v, clans[v], model=model) for v in range(n)]
    onlooker = Belief(n, None, None, model=model)
    for k, move in enumerate(final.moves, start=1):
        mover = state.current_player
        evidence = onlooker.read(state, move)  # the onlooker sees every move
        for b in (*seats, onlooker):
            b.take(mover, evidence)
        state.push(move, undo=False)
        yield k, clans, seats, onlooker


def readings(rec: dict, every: int, model: ReaderModel = MODEL):
    """Per reader kind ("seat", "onlooker"): (probabilities over the possible clans, the
    true clan) after every ``every``-th move, for every player the reader does not hold."""
    out: dict[str, list[tuple[Guess, tuple]]] = {"seat": [], "onlooker": []}
    for k, clans, seats, onlooker in _read_along(rec, model):
        if k % every:
            continue
        for kind, beliefs in (("seat", seats), ("onlooker", [onlooker])):
            for b in beliefs:
                for p, dist in b.marginals().items():
                    guess = Guess.of(dist, clans[p], ruled_out=[b.own_clan]
                                     if b.own_clan is not None else [])
                    out[kind].append((guess, (b.viewer, p)))  # one series per reader, player
    return out


def verdicts(rec: dict, model: ReaderModel = MODEL) -> list[dict]:
    """For every player of the game, what the chart says at the end and what lies behind
    it: the verdict (clans_pi.history.hiding.verdict_of the table's line: the mean over
    the other seats of the probability on the true clan after each move), the line's end,
    how many of the other seats' top guesses named the true clan, and the highest
    probability a seat gave a wrong clan (their mean)."""
    curves: list[list[float]] = []
    clans: tuple[str, ...] = ()
    seats: list[Belief] = []
    for _, clans, seats, _ in _read_along(rec, model):
        n = len(clans)
        curves = curves or [[SEAT_BLIND] for _ in range(n)]
        marginals = [b.marginals() for b in seats]
        for p in range(n):
            others = [m[p][clans[p]] for v, m in enumerate(marginals) if v != p]
            curves[p].append(sum(others) / len(others))
    out = []
    for p, curve in enumerate(curves):
        guesses = [m[p] for v, m in enumerate(b.marginals() for b in seats) if v != p]
        out.append({"verdict": verdict_of(curve).kind, "end": curve[-1],
                    "top_right": sum(max(g, key=g.__getitem__) == clans[p] for g in guesses)
                    / len(guesses),
                    "wrong_top": sum(max(q for c, q in g.items() if c != clans[p])
                                     for g in guesses) / len(guesses)})
    return out


def verdict_table(rows: list[dict]) -> dict:
    """Per verdict: how many players got it, the line's mean end, how often the other
    seats' top guess named the clan, and their mean highest probability on a wrong clan."""
    out = {}
    for kind in ("read", "suspected", "hidden", "misled"):
        some = [r for r in rows if r["verdict"] == kind]
        if some:
            out[kind] = {"players": len(some),
                         "end": sum(r["end"] for r in some) / len(some),
                         "top_right": sum(r["top_right"] for r in some) / len(some),
                         "wrong_top": sum(r["wrong_top"] for r in some) / len(some)}
    return out


def figures(tagged: list[tuple[Guess, tuple]]) -> dict:
    """One reader kind's figures from its guesses, each with the series it belongs to:
    Brier score against the uniform guess's, ECE, how often the top guess was right, the
    reliability table's non-empty bins (with how many series each holds and whether it
    said more than came true, :attr:`.calibration.Bin.overconfident`) and how many did."""
    rows = [g for g, _ in tagged]
    pairs = outcomes(rows)
    series = [name for g, name in tagged for _ in g.probs]
    k = len(rows[0].probs)
    table = [b for b in reliability(pairs, series=series) if b.count]
    return {
        "readings": len(rows),
        "probabilities": len(pairs),
        "brier": sum(brier(g) for g in rows) / len(rows),
        "uniform": (k - 1) / k,
        "ece": expected_calibration_error(pairs),
        "top_right": sum(max(g.probs, key=g.probs.__getitem__) == g.truth
                         for g in rows) / len(rows),
        "reliability": [{"lo": b.lo, "hi": b.hi, "count": b.count, "series": b.series,
                         "mean": b.mean, "observed": b.observed,
                         "overconfident": b.overconfident(1 / k)} for b in table],
        "overconfident_bins": sum(b.overconfident(1 / k) for b in table),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--every", type=int, default=1, help="every n-th move (1: all)")
    parser.add_argument("--model", choices=sorted(MODELS), default="game",
                        help="the reader (game: the one the game uses, clans_pi/bots/belief.py)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of the text")
    args = parser.parse_args()
    by_kind: dict[str, list] = {"seat": [], "onlooker": []}
    ends: list[dict] = []
    games = 0
    for path in args.games:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            game = json.loads(line)
            for kind, rows in readings(game["record"], args.every,
                                       MODELS[args.model]).items():
                by_kind[kind] += [(g, (games, *name)) for g, name in rows]
            ends += verdicts(game["record"], MODELS[args.model])
            games += 1
    out = {kind: figures(rows) for kind, rows in by_kind.items()}
    out["verdicts"] = verdict_table(ends)
    if args.json:
        print(json.dumps({"games": games, "every": args.every, **out}))
        return
    print(f"{games} games")
    print("\nverdicts (the chart's, at the end): players, the line's mean end, the other "
          "seats' top guess right, their highest probability on a wrong clan")
    for kind, v in out["verdicts"].items():
        print(f"  {kind:10} {v['players']:5d}  {v['end']:.3f}  {v['top_right']:.3f}  "
              f"{v['wrong_top']:.3f}")
    for kind in ("seat", "onlooker"):
        f = out[kind]
        print(f"\n{kind}: {f['readings']} readings (move x player x reader), "
              f"{f['probabilities']} probabilities; Brier {f['brier']:.3f} "
              f"(uniform {f['uniform']:.3f}), ECE {f['ece']:.3f}, "
              f"top guess right {f['top_right']:.3f}")
        print("  p bin      count  series  mean p  observed")
        for b in f["reliability"]:
            print(f"  {b['lo']:.1f}-{b['hi']:.1f}  {b['count']:8d}  {b['series']:6d}  "
                  f"{b['mean']:6.3f}  {b['observed']:8.3f}"
                  + ("  said more than came true" if b["overconfident"] else ""))


if __name__ == "__main__":
    main()
