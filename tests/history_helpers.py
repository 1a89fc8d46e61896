"""Finished games kept as records, as the table keeps them (clans_pi.persistence): for the
past games' tests and screens."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from clans_pi.rules.board import load_default_board
from clans_pi.rules.epochs import load_default_chart
from clans_pi.rules.record import to_record
from clans_pi.rules.setup import deal

BOARD = load_default_board()
CHART = load_default_chart()
#: (name, avatar, kind) of the family and its computers.
FAMILY = (("Anna", "fox", "human"), ("Maximilianne", "owl", "human"), ("Ben", "bear", "human"),
          ("Hare (Hard)", "hare", "hard"), ("Cleo", "cat", "human"),
          ("Wolf (Easy)", "wolf", "easy"))
#: The day every constructed game is dated from (the newest game ends then).
NOW = datetime(2026, 11, 25, 20, 30).astimezone()


def finished_record(seats: list[tuple[str, str, str]], seed: int, *,
                    ended: datetime | None = None,
                    guesses: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A random game between ``seats`` (table order; turn order starts at the first seat)
    played to its end, as the store keeps it: the record with its table (and guesses)."""
    rng = random.Random(seed)
    state = deal(BOARD, [s[0] for s in seats], rng, CHART)
    while not state.is_over:
        state.play(state.random_legal_move(rng.random))
    record = to_record(state)
    record["table"] = {"ended": (ended or NOW).isoformat(timespec="seconds"),
                       "seats": [{"name": n, "avatar": a, "kind": k} for n, a, k in seats]}
    if guesses is not None:
        record["guesses"] = guesses
    return record


def write_record(records: Path, record: dict[str, Any], name: str) -> Path:
    records.mkdir(parents=True, exist_ok=True)
    path = records / name
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return path


def family_games(records: Path, n: int, *, seed: int = 1, hours: float = 20) -> list[Path]:
    """``n`` finished games of 2 to 4 of the family, one every ``hours`` back from NOW."""
    rng = random.Random(seed)
    paths = []
    for k in range(n):
        size = 2 + k % 3
        seats = rng.sample(FAMILY, size)
        pics = set()
        seats = [s for s in seats if not (s[1] in pics or pics.add(s[1]))]  # one picture each
        while len(seats) < 2:
            seats.append(("Dev", "pig", "human"))
        ended = NOW - timedelta(hours=hours * k)
        paths.append(write_record(records, finished_record(seats, seed * 1000 + k, ended=ended),
                                  f"{ended:%Y%m%d-%H%M%S}-{k:010d}.json"))
    return paths
