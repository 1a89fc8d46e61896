"""Past games for tests: finished games played at random, written into a records directory
as the table writes them (:meth:`clans_pi.saving.store.GameStore._record` and
``add_guesses``): the game's record, when it ended, who sat where, the computers' guesses.

``NOW`` is a fixed evening (the list's "Today"/"Yesterday" are checked against it);
``TODAY`` is the moment the tests run (the scoreboard's last 30 days are counted from it)."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from clans_pi.history import History
from clans_pi.rules.constants import CLANS
from clans_pi.rules.record import to_record
from clans_pi.rules.setup import deal
from clans_pi.rules.state import GameState
from clans_pi.session import HUMAN, Seat
from tests.ui_helpers import BOARD, CHART

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


TODAY = datetime.now().astimezone()


def finished_state(names: Sequence[str], seed: int) -> GameState:
    """The game of ``names`` (table order) dealt and played at random to its end."""
    rng = random.Random(seed)
    state = deal(BOARD, list(names), rng, CHART)
    while not state.is_over:
        state.play(state.random_legal_move(rng.random))
    return state


@functools.cache
def seed_where(players: int, shared: bool, skip: int = 0) -> int:
    """A seed whose game of ``players`` ends with a shared win (R21) or with one winner
    (the ``skip``-th such seed): who plays does not change the game a seed deals."""
    names = [f"P{k}" for k in range(players)]
    found = 0
    for seed in range(10_000):
        if (len(finished_state(names, seed).winners()) > 1) == shared:
            if found == skip:
                return seed
            found += 1
    raise AssertionError("no such game")


def person(name: str, avatar: str = "") -> Seat:
    return Seat(name, avatar, HUMAN)


def computer(level: str, avatar: str = "owl") -> Seat:
    return Seat(f"{avatar.capitalize()} ({level.capitalize()})", avatar, level)


_written = 0


def write_game(records: Path, seats: Sequence[Seat], seed: int, *,
               days_ago: float = 1.0, guesses: list[dict[str, Any]] | None = None,
               ) -> tuple[Path, GameState]:
    """Write the record of the game of ``seats`` (table order) dealt by ``seed``, ended
    ``days_ago``, with the computers' final ``guesses`` (players in turn order); returns
    its file and the finished game."""
    global _written
    state = finished_state([s.name for s in seats], seed)
    record = to_record(state)
    ended = TODAY - timedelta(days=days_ago)
    record["table"] = {"ended": ended.isoformat(timespec="seconds"),
                       "seats": [{"name": s.name, "avatar": s.avatar, "kind": s.kind}
                                 for s in seats]}
    if guesses is not None:
        record["guesses"] = guesses
    records.mkdir(parents=True, exist_ok=True)
    _written += 1
    path = records / f"{ended:%Y%m%d-%H%M%S}-{_written:010d}.json"
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return path, state


def guess(state: GameState, by: str, of: str, *, right: bool) -> dict[str, Any]:
    """The computer ``by``'s final guess of ``of``'s clan, right or wrong."""
    p = state.players.index(of)
    clan = state.clan_of(p)
    if not right:
        clan = next(c for c in CLANS if c != clan)
    return {"by": state.players.index(by), "of": p, "clan": clan, "weight": 0.5}


def history(records: Path) -> History:
    h = History(records, BOARD, CHART)
    h.refresh()
    return h


def family(records: Path) -> History:
    """A dozen games of a family with long names, computers of two levels, shared wins,
    some of them more than a month ago."""
    people = [person("Maximilianne", "fox"), person("Bartholomew", "bear"),
              person("Anna", "hare"), person("Annie", "hare"), person("Jo", "owl")]
    hard, easy = computer("hard", "owl"), computer("easy", "wolf")
    tables = [
        [people[0], people[1], people[2], hard],
        [people[0], people[1], easy, hard],
        [people[2], people[4], hard],
        [people[3], people[0], people[1], people[4]],
        [people[1], people[4], easy],
        [people[0], people[3]],
    ]
    for k in range(12):
        seats = tables[k % len(tables)]
        seed = seed_where(len(seats), k % 4 == 1, k)
        state = finished_state([s.name for s in seats], seed)
        bots = [s.name for s in seats if not s.is_human]
        guesses = [guess(state, bot, s.name, right=(j + k) % 3 != 0)
                   for bot in bots for j, s in enumerate(seats) if s.name != bot]
        write_game(records, seats, seed, days_ago=3 + k * 5, guesses=guesses)
    return history(records)
