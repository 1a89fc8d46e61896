"""The family's scoreboard from the past games: per person (by name) and per computer level,
games played, wins (a shared win counts as a share: two winners get half a win each, R21),
average and best score, and how often the computers read their clan right.

Names are the family's own words: two people with the same name are one row (their
business); a person renamed later has their old games merged under the new name
(:meth:`clans_pi.history.index.History.merge`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from ..session import HUMAN, kind_label
from .past_game import PastGame

#: The scoreboard's recent period: the last 30 days.
RECENT_DAYS = 30


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the scoreboard."""

    name: str  # the person's name, or the computer level's in words ("Computer: Hard")
    kind: str  # "human", or the computer's level
    avatar: str  # the picture of the person's latest game ("" : none known)
    games: int
    wins: float
    average: float
    best: int
    read_right: int  # the computers' final guesses of this player's clan that were right
    guessed: int  # ... of how many

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "wins": round(self.wins, 2),
                "average": round(self.average, 1), "best": self.best}


def scoreboard(games: Iterable[PastGame], *, since: datetime | None = None) -> list[Standing]:
    """The standings over ``games`` (ended at or after ``since``, when given): most wins
    first, then the better average, then by name."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for game in sorted(games, key=lambda g: g.date):
        if since is not None and game.date < since:
            continue
        share = Fraction(1, max(1, len(game.winners)))  # exact: 3 thirds make 1 (R21)
        for p in game.players:
            key = (HUMAN, p.name) if p.is_human else (p.kind, "")
            row = rows.setdefault(key, {"games": 0, "wins": Fraction(0), "points": 0, "best": 0,
                                        "right": 0, "guessed": 0, "avatar": ""})
            row["games"] += 1
            row["wins"] += share if p.winner else 0
            row["points"] += p.score
            row["best"] = max(row["best"], p.score)
            row["right"] += p.read_right
            row["guessed"] += p.guessed
            row["avatar"] = p.avatar or row["avatar"]  # the latest game's picture
    standings = [
        Standing(name if kind == HUMAN else kind_label(kind), kind, r["avatar"], r["games"],
                 float(r["wins"]), r["points"] / r["games"], r["best"], r["right"],
                 r["guessed"])
        for (kind, name), r in rows.items()
    ]
    standings.sort(key=lambda s: (-s.wins, -s.average, s.name.casefold()))
    return standings


def recent_since(now: datetime | None = None) -> datetime:
    """The start of the scoreboard's recent period (the last :data:`RECENT_DAYS` days)."""
    return (now or datetime.now().astimezone()) - timedelta(days=RECENT_DAYS)
