"""Regenerate the perft golden file, tests/data/perft.json:  python scripts/make/perft.py

Perft, as python-chess and other game engines use it: for a set of positions, count the
legal moves and the move sequences two plies deep, and check the engine reproduces the
counts (tests/test_perft.py). Every expected value here is computed by the REFERENCE engine
(tests/reference_engine.py), never by clans_pi's GameState; clans_pi is used only to deal
the games (setup.deal) and to play them (RandomMover), which produces the records.

Counting (R8-R11): a move is a (from, to) pair together with one founding order of the
villages it founds, so a move founding k villages counts k! times. ``perft1`` is the number
of such moves; ``perft2`` the number of (move, reply) sequences, where a move that ends the
game has no replies (it adds 0: counting stops below a finished position). ``divide`` splits
perft2 by first move ("from-to", all its orders together), to bisect a mismatch.

Run this whenever the shipped board (clans_pi/rules/data/board.json) or chart changes:
the file stores the board id and a digest of the board's and chart's rule data, and the
tests skip, asking for this script, when they no longer match.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import math
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clans_pi.bots.random_mover import RandomMover  # noqa: E402
from clans_pi.rules.board import load_default_board  # noqa: E402
from clans_pi.rules.epochs import load_default_chart  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402
from tests.reference_engine import BIG_GROUP, CLANS, ReferenceGame  # noqa: E402

GOLDEN = ROOT / "tests" / "data" / "perft.json"
DATA = ROOT / "clans_pi" / "rules" / "data"
FORMAT = "clans-perft/1"
NAMES = ("Ann", "Bob", "Cid", "Dee")
MAX_SEEDS = 400


# ------------------------------------------------------------------ board and chart ids


def board_digest(board: dict[str, Any]) -> str:
    """A digest of what the rules read from a ``clans-board/1`` dict (R1, R2, R5):
    each territory's id, terrain, region and neighbours (drawing data is left out)."""
    rows = sorted(
        (int(t["id"]), t["terrain"], int(t["region"]), sorted(int(n) for n in t["neighbors"]))
        for t in board["territories"]
    )
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16]


def chart_digest(chart: dict[str, Any]) -> str:
    """A digest of what the rules read from a ``clans-epochs/1`` dict (R15)."""
    rows = [
        (int(e["chips"]), int(e["bonus"]), sorted(e["favourable"]), sorted(e["hostile"]))
        for e in chart["epochs"]
    ]
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16]


def shipped_board_and_chart() -> tuple[dict[str, Any], dict[str, Any]]:
    """The shipped data files, read as plain JSON (as the reference engine takes them)."""
    board = json.loads((DATA / "board.json").read_text(encoding="utf-8"))
    chart = json.loads((DATA / "epochs.json").read_text(encoding="utf-8"))
    return board, chart


# ------------------------------------------------------------------ reference counting


def reference_game(board: dict, chart: dict, rec: dict[str, Any]) -> ReferenceGame:
    """Replay a ``clans-record/1`` dict on the reference engine."""
    huts = {int(t): clan for t, clan in rec["huts"].items()}
    game = ReferenceGame(board, chart, len(rec["players"]), list(rec["clans"]), huts)
    for m in rec["moves"]:
        game.play(m["from"], m["to"], m.get("order"))
    return game


def reference_founds(game: ReferenceGame) -> dict[tuple[int, int], list[int]]:
    """The villages each legal move would found (R10), by (from, to)."""
    return {(s, d): sorted(game.villages_founded_by(s, d)) for s, d in sorted(game.legal_moves())}


def perft1(game: ReferenceGame) -> int:
    return sum(math.factorial(len(v)) for v in reference_founds(game).values())


def divide2(game: ReferenceGame) -> dict[tuple[int, int], int]:
    """perft2 split by first move: every order of its villages, then every reply."""
    out = {}
    for (src, dst), villages in reference_founds(game).items():
        total = 0
        orders = [list(p) for p in permutations(villages)] if len(villages) > 1 else [None]
        for order in orders:
            child = copy.deepcopy(game)
            child.play(src, dst, order)
            total += perft1(child)  # a finished child has no legal moves: 0
        out[(src, dst)] = total
    return out


# ------------------------------------------------------------------ choosing positions


@dataclass
class Candidate:
    seed: int
    record: dict[str, Any]
    game: ReferenceGame
    _founds: dict[tuple[int, int], list[int]] | None = field(default=None, repr=False)

    @property
    def founds(self) -> dict[tuple[int, int], list[int]]:
        if self._founds is None:
            self._founds = reference_founds(self.game)
        return self._founds

    @property
    def ply(self) -> int:
        return len(self.record["moves"])

    @property
    def players(self) -> int:
        return len(self.record["players"])

    def big_moves(self) -> list[tuple[int, int]]:
        return [(s, d) for s, d in self.game.legal_moves() if self.game.size(s) >= BIG_GROUP]

    def most_villages(self) -> int:
        return max((len(v) for v in self.founds.values()), default=0)


# name prefix, how many, test on a candidate (cheap tests first: founds is costly)
CATEGORIES: list[tuple[str, int, Callable[[Candidate], bool]]] = [
    (
        "more-villages-than-chips",  # R18: the mover chooses which villages score
        2,
        lambda c: (
            c.game.chips_taken() >= 9
            and c.most_villages() > c.game.total_chips - c.game.chips_taken()
        ),
    ),
    ("three-villages", 1, lambda c: c.ply >= 25 and c.most_villages() >= 3),  # R11: 3! orders
    (
        "big-group-and-multi-village",  # R9 and R11 at once
        2,
        lambda c: c.ply >= 25 and bool(c.big_moves()) and c.most_villages() >= 2,
    ),
    (
        "big-into-big",  # R9: a group of 7+ may join a neighbouring group at least as large
        2,
        lambda c: any(c.game.size(d) >= BIG_GROUP for _, d in c.big_moves()),
    ),
    ("multi-village", 2, lambda c: c.ply >= 25 and c.most_villages() >= 2),
    ("big-group", 2, lambda c: c.ply >= 20 and bool(c.big_moves())),
    ("finished-no-moves", 1, lambda c: c.game.end_reason() == "no_moves"),  # R19
    ("finished-twelfth-village", 3, lambda c: c.game.end_reason() == "twelfth_village"),  # R18
    ("opening", 1, lambda c: c.ply == 0),  # the same counts for every deal: one is enough
    *(
        (f"ply{ply}", 2, lambda c, ply=ply: c.ply == ply and not c.game.is_over())
        for ply in (8, 16, 24, 32, 40)
    ),
]


def games(board_dict: dict, chart_dict: dict) -> Iterator[tuple[int, dict[str, Any]]]:
    """Seeded random games as full records: deal + RandomMover (clans_pi plays them)."""
    board, chart = load_default_board(), load_default_chart()
    for seed in range(MAX_SEEDS):
        n = 2 + seed % 3
        state = deal(board, NAMES[:n], random.Random(seed), chart)
        RandomMover(seed).play_game(state)
        moves = [
            {"from": m.src, "to": m.dst, **({"order": list(m.order)} if m.order else {})}
            for m in state.moves
        ]
        yield (
            seed,
            {
                "format": "clans-record/1",
                "players": list(state.players),
                "clans": list(state.clans),
                "huts": {str(t): CLANS[c] for t, c in enumerate(state.initial_huts)},
                "moves": moves,
            },
        )


def choose_positions(board: dict, chart: dict) -> list[tuple[str, Candidate]]:
    wanted = {name: n for name, n, _ in CATEGORIES}
    chosen: list[tuple[str, Candidate]] = []
    players_used: dict[str, set[int]] = {name: set() for name in wanted}
    for seed, full in games(board, chart):
        if not any(wanted.values()):
            break
        game = reference_game(board, chart, {**full, "moves": []})
        for ply in range(len(full["moves"]) + 1):
            if ply:
                m = full["moves"][ply - 1]
                game.play(m["from"], m["to"], m.get("order"))
            cand = Candidate(seed, {**full, "moves": full["moves"][:ply]}, game)
            for name, _, test in CATEGORIES:
                # Spread each category over the player counts (while seeds are plenty).
                if not wanted[name] or (
                    cand.players in players_used[name]
                    and len(players_used[name]) < 3
                    and seed < MAX_SEEDS // 4
                ):
                    continue
                if test(cand):
                    wanted[name] -= 1
                    players_used[name].add(cand.players)
                    label = f"{name}-{cand.players}p-seed{seed}-ply{ply}"
                    chosen.append((label, Candidate(seed, cand.record, copy.deepcopy(game))))
                    break  # one category per position
    missing = {k: v for k, v in wanted.items() if v}
    if missing:
        raise SystemExit(f"make_perft: no positions found for {missing} in {MAX_SEEDS} seeds")
    return chosen


def expected(label: str, cand: Candidate) -> dict[str, Any]:
    game = cand.game
    divide = divide2(game)
    entry: dict[str, Any] = {
        "name": label,
        "record": cand.record,
        "ply": cand.ply,
        "end": game.end_reason(),
        "chips_taken": game.chips_taken(),
        "legal_moves": len(game.legal_moves()),
        "perft1": perft1(game),
        "perft2": sum(divide.values()),
        "founds": {f"{s}-{d}": v for (s, d), v in cand.founds.items() if v},
        "divide": {f"{s}-{d}": n for (s, d), n in divide.items()},
    }
    if game.is_over():
        entry["result"] = game.result()
    return entry


def dump(golden: dict[str, Any]) -> str:
    """JSON with one line per field of a position (diffs stay readable, the file small)."""

    def compact(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"))

    head = [f" {json.dumps(k)}: {compact(v)}" for k, v in golden.items() if k != "positions"]
    positions = [
        "  {\n" + ",\n".join(f"   {json.dumps(k)}: {compact(v)}" for k, v in p.items()) + "\n  }"
        for p in golden["positions"]
    ]
    return (
        "{\n" + ",\n".join([*head, ' "positions": [\n' + ",\n".join(positions) + "\n ]"]) + "\n}\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write tests/data/perft.json from the reference engine (minutes).")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the stored file differs")
    args = parser.parse_args(argv)
    board, chart = shipped_board_and_chart()
    positions = []
    for label, cand in choose_positions(board, chart):
        positions.append(expected(label, cand))
        p = positions[-1]
        print(f"{label}: {p['legal_moves']} moves, perft1 {p['perft1']}, perft2 {p['perft2']}")
    golden = {
        "format": FORMAT,
        "comment": "Made by scripts/make/perft.py from the reference engine; do not edit.",
        "board": {"id": board.get("id", "custom"), "digest": board_digest(board)},
        "chart": {"id": chart.get("id", "custom"), "digest": chart_digest(chart)},
        "positions": positions,
    }
    text = dump(golden)
    if args.check:
        stored = GOLDEN.read_text(encoding="utf-8") if GOLDEN.exists() else ""
        if stored != text:
            print(f"{GOLDEN.relative_to(ROOT)} is out of date: run "
                  f".venv/bin/python -m scripts.make.perft", file=sys.stderr)
            return 1
        print(f"{GOLDEN.relative_to(ROOT)} is up to date")
        return 0
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"wrote {len(positions)} positions to {GOLDEN.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
