#!/usr/bin/env python3
"""How well can one reader be calibrated on each population of players separately, when it
cannot tell the populations apart? A synthetic check with a reader that knows everything
but the player's kind.

Each player holds one of 4 clans and makes ``moves`` choices among ``options`` moves; every
option has a value for each clan (drawn from a standard normal). An **open** player picks
an option with probability softmax(``beta`` x its value for their clan); an **aimless**
one picks uniformly. The reader is the exact Bayesian posterior over the clan, with a
prior weight ``open_weight`` on the open kind: it knows the game, the values and both
kinds exactly, and is therefore calibrated on a table whose players are open with that
probability (the **mix**). Each population is then read move by move, and the readings'
reliability table, calibration error and over-confident bins are computed with the
product's own :mod:`clans_pi.bots.calibration` (a series is one player's readings through
one game), as scripts/research/hiding_calibration.py does for real games.

What it shows: on the mix the reader is calibrated; on the **open** players alone it is
under-confident (it hedges against the aimless kind), and on the **aimless** players alone
every reading off 1/4 is over-confident, since their clan never shows in their moves.
So "calibrated with no over-confident bin on every population separately" is out of reach
of any single reader, even a perfect one, unless a population shows itself within a few
moves: how far out of reach depends on how quickly the kinds can be told apart.

Usage::

    .venv/bin/python -m scripts.research.mixture_limit [--games 200] [--moves 20] \\
        [--options 8] [--beta 1.0] [--open-weight 0.5] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from clans_pi.bots.calibration import (  # noqa: E402
    Bin,
    expected_calibration_error,
    reliability,
)
from clans_pi.bots.heuristic import softmax  # noqa: E402

CLANS = 4


@dataclass(frozen=True)
class Report:
    """One population's readings: Brier score (and the uniform guess's), calibration
    error, the reliability table and how many of its bins were over-confident."""

    population: str
    brier: float
    uniform: float
    ece: float
    table: list[Bin]

    @property
    def overconfident(self) -> int:
        return sum(b.overconfident(1.0 / CLANS) for b in self.table)


def read_player(rng: random.Random, is_open: bool, clan: int, moves: int, options: int,
                beta: float, open_weight: float) -> list[list[float]]:
    """One player's game: after each move, the exact posterior over the 4 clans."""
    log_open = [0.0] * CLANS  # log P(moves so far | open, clan)
    log_aimless = 0.0  # log P(moves so far | aimless), the same for every clan
    out = []
    for _ in range(moves):
        values = [[rng.gauss(0.0, 1.0) for _ in range(CLANS)] for _ in range(options)]
        chances = [softmax([values[o][c] for o in range(options)], beta)
                   for c in range(CLANS)]
        pick = (rng.choices(range(options), weights=chances[clan])[0] if is_open
                else rng.randrange(options))
        for c in range(CLANS):
            log_open[c] += math.log(chances[c][pick])
        log_aimless += math.log(1.0 / options)
        joint = [open_weight * math.exp(log_open[c] - log_aimless) + (1.0 - open_weight)
                 for c in range(CLANS)]
        total = sum(joint)
        out.append([j / total for j in joint])
    return out


def population(name: str, games: int, moves: int, options: int, beta: float,
               open_weight: float, share_open: float, seed: int) -> Report:
    """Read ``games`` players of whom ``share_open`` are open (drawn), the rest aimless."""
    rng = random.Random(f"{seed}:{name}")
    pairs: list[tuple[float, bool]] = []
    series: list[int] = []
    brier = 0.0
    readings = 0
    for game in range(games):
        clan = rng.randrange(CLANS)
        is_open = rng.random() < share_open
        for probs in read_player(rng, is_open, clan, moves, options, beta, open_weight):
            readings += 1
            brier += sum((p - (c == clan)) ** 2 for c, p in enumerate(probs))
            for c, p in enumerate(probs):
                pairs.append((p, c == clan))
                series.append(game)
    uniform = (CLANS - 1) / CLANS
    return Report(name, brier / readings, uniform, expected_calibration_error(pairs),
                  reliability(pairs, series=series))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="players per population")
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--options", type=int, default=8)
    parser.add_argument("--beta", type=float, default=1.0)
    parser.add_argument("--open-weight", type=float, default=0.5,
                        help="the reader's prior weight on an open player")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{args.games} players a population, {args.moves} moves of {args.options} "
          f"options, beta {args.beta:g}; the reader expects open players with weight "
          f"{args.open_weight:g}")
    for name, share in (("mix", args.open_weight), ("open", 1.0), ("aimless", 0.0)):
        r = population(name, args.games, args.moves, args.options, args.beta,
                       args.open_weight, share, args.seed)
        print(f"{name:8} Brier {r.brier:.3f} (uniform {r.uniform:.3f}) ECE {r.ece:.3f} "
              f"over-confident bins {r.overconfident}")
        print("  " + "  ".join(f"{b.lo:.1f}:{b.count}/{b.mean:.2f}/{b.observed:.2f}"
                               + ("!" if b.overconfident(1.0 / CLANS) else "")
                               for b in r.table if b.count))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
