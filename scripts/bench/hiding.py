#!/usr/bin/env python3
"""Benchmark the after-game reading of how well each player hid.

Prints one JSON object: the longest of ``--deals`` seeded 4-player games (random movers and
one player plainly playing for their clan; no game on this board lasts 60 moves: 38 to 50
in 300 random 4-player games) read from its record
(``clans_pi.history.hiding.analyse_record``: every other seat's and an onlooker's belief,
move by move), the median of ``--rounds`` runs:

- ``analysis_s``: the reading here; ``per_move_ms`` that over the moves;
  ``pi4_60_moves_s``: a 60-move game's reading on a Pi 4, per_move_ms times 60 times
  ``PI_FACTOR`` (a Pi 4 core runs this Python about 4 times slower:
  scripts/research/tournament.py). Target: under 5 s.
- ``cached_s``: the same game's reading found in ``past-games-hiding.json`` by a new
  cache (the file read, the game's digest, the reading rebuilt).

Usage: .venv/bin/python scripts/bench/hiding.py [--deals 100] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from clans_pi.bots.heuristic import clan_values  # noqa: E402
from clans_pi.history.hiding import analyse_record  # noqa: E402
from clans_pi.history.hiding_cache import HidingCache  # noqa: E402
from clans_pi.rules.board import load_default_board  # noqa: E402
from clans_pi.rules.constants import CLAN_INDEX  # noqa: E402
from clans_pi.rules.epochs import load_default_chart  # noqa: E402
from clans_pi.rules.record import to_record  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402
from scripts.bench.history import median_of  # noqa: E402
from scripts.research.tournament import PI_FACTOR  # noqa: E402


def long_game(deals: int, seed: int) -> dict:
    """The longest of ``deals`` seeded 4-player games, as a record."""
    board, chart = load_default_board(), load_default_chart()
    longest = None
    for k in range(deals):
        rng = random.Random(f"bench-hiding:{seed}:{k}")
        state = deal(board, ["A", "B", "C", "D"], rng, chart)
        while not state.is_over:
            if state.current_player == 0:
                legal = state.legal_moves()
                clan = CLAN_INDEX[state.clan_of(0)]
                values = clan_values(state, legal)
                state.play(legal[max(range(len(legal)), key=lambda i: values[i][clan])])
            else:
                state.play(state.random_legal_move(rng.random))
        if longest is None or state.ply > longest.ply:
            longest = state
    assert longest is not None
    return to_record(longest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    board, chart = load_default_board(), load_default_chart()
    record = long_game(args.deals, args.seed)
    analysis_s = median_of(args.rounds, lambda: analyse_record(record, board, chart))
    with tempfile.TemporaryDirectory(prefix="clans-bench-hiding-") as tmp:
        HidingCache(tmp, board, chart).reading(record).wait()

        def cached() -> None:
            cache = HidingCache(tmp, board, chart)
            cache.load()
            assert cache.cached(record) is not None

        cached_s = median_of(args.rounds, cached)
    print(json.dumps({
        "players": 4, "moves": len(record["moves"]), "rounds": args.rounds,
        "analysis_s": round(analysis_s, 4),
        "per_move_ms": round(1000 * analysis_s / len(record["moves"]), 3),
        "pi_factor": PI_FACTOR,
        "pi4_60_moves_s": round(analysis_s / len(record["moves"]) * 60 * PI_FACTOR, 3),
        "cached_s": round(cached_s, 4),
        "machine": f"{platform.machine()} {platform.python_version()}",
    }))


if __name__ == "__main__":
    main()
