"""One finished game as the past games' list and the scoreboard see it, read from its record
(``clans-record/1``, :mod:`clans_pi.rules.record`) by replaying it through the engine: a
record that no longer replays legally, or whose game is not over, is damaged, never shown.

The game is over, so its clans are public now (R20): a :class:`PastGame` holds them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..rules.board import Board
from ..rules.constants import CLANS, MAX_NAME_LENGTH
from ..rules.epochs import EpochChart
from ..rules.errors import RecordError
from ..rules.record import replay
from ..rules.state import GameState
from ..session import HUMAN, SEAT_KINDS

#: A record's file name as the store writes it: when the game ended, then its checksum.
STAMP = re.compile(r"^(\d{8}-\d{6})-")


@dataclass(frozen=True, slots=True)
class PastPlayer:
    """One seat of a finished game (table order)."""

    name: str
    avatar: str  # "" when the record does not say (the screen picks one by seat)
    kind: str  # "human" or a computer's level (clans_pi.session.SEAT_KINDS), or "random"
    clan: str
    clan_points: int
    chips: int
    score: int
    winner: bool
    #: The computer players' final guesses of this player's clan: how many named it right,
    #: of how many were made (0, 0 when none was kept).
    read_right: int = 0
    guessed: int = 0

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN


@dataclass(frozen=True, slots=True)
class PastGame:
    """A finished game: its record's file name, when it ended, the seats in table order."""

    file: str
    date: datetime  # local time, with its offset
    players: tuple[PastPlayer, ...]
    end: str  # "twelfth_village" or "no_moves" (R19)
    moves: int

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players if p.winner)

    def to_json(self) -> dict[str, Any]:
        """The game as ``clans-pi history --json`` prints it."""
        return {
            "file": self.file,
            "date": self.date.isoformat(timespec="seconds"),
            "players": [p.name for p in self.players],
            "winners": list(self.winners),
            "scores": [p.score for p in self.players],
            "end": self.end,
        }


def read_past_game(data: Any, file: str, board: Board, chart: EpochChart, *,
                   modified: float | None = None) -> PastGame:
    """The finished game in a record (``data``, its parsed JSON) kept as ``file``.

    Raises :class:`RecordError` with one line saying what is wrong (a move that is not
    legal, a game that is not over). ``modified`` (the file's mtime) dates a record that
    says nothing of when it ended and whose name carries no stamp."""
    return past_game_of(replay(data, board, chart, undo=False), data, file, modified)


def past_game_of(state: GameState, data: Any, file: str,
                 modified: float | None = None) -> PastGame:
    """The finished game of ``state``, replayed from the record ``data`` kept as ``file``
    (its table, guesses and date); raises :class:`RecordError` as :func:`read_past_game`."""
    if not state.is_over:
        raise RecordError(f"the game is not over after {state.ply} moves")
    for name in state.players:  # a name typed at the table never holds one
        if not name.isprintable():
            raise RecordError(f"player {name!r}: a name with control characters")
    assert isinstance(data, Mapping)  # replay checked it
    table = data.get("table")
    table = table if isinstance(table, Mapping) else {}
    date = _date(table.get("ended"), file, modified)
    seats = _seats(table.get("seats"), state)
    right, guessed = _reads(data.get("guesses"), state)
    scores, winners = state.scores(), state.winners()
    players = []
    for name, avatar, kind in seats:
        p = state.players.index(name)
        clan = state.clan_of(p)
        players.append(PastPlayer(name, avatar, kind, clan, state.clan_points[clan],
                                  state.chips[p], scores[p], p in winners, right[p],
                                  guessed[p]))
    assert state.end_reason is not None
    return PastGame(file, date, tuple(players), state.end_reason, state.ply)


def _date(ended: Any, file: str, modified: float | None) -> datetime:
    """When the game ended: the record's own word, else its file name's stamp (the local
    time it was written), else the file's time."""
    if isinstance(ended, str):
        try:
            date = datetime.fromisoformat(ended)
        except ValueError:
            pass
        else:
            return date if date.tzinfo is not None else date.astimezone()
    found = STAMP.match(file)
    if found:
        try:
            return datetime.strptime(found.group(1), "%Y%m%d-%H%M%S").astimezone()
        except ValueError:
            pass
    return datetime.fromtimestamp(modified or 0).astimezone()


def _seats(raw: Any, state: GameState) -> list[tuple[str, str, str]]:
    """(name, avatar, kind) per seat in table order: the record's table when it holds the
    game's players with turns going round it (R7), else the players in turn order (a valid
    table order), each a person unless its name is a computer's ("Owl (Hard)")."""
    if isinstance(raw, list) and len(raw) == state.num_players:
        seats = []
        for s in raw:
            if not isinstance(s, Mapping):
                break
            name, avatar, kind = s.get("name"), s.get("avatar", ""), s.get("kind", HUMAN)
            if not (isinstance(name, str) and isinstance(avatar, str) and isinstance(kind, str)):
                break
            seats.append((name, avatar, kind if kind in (*SEAT_KINDS, "random") else HUMAN))
        else:
            names = [n for n, _a, _k in seats]
            if sorted(names) == sorted(state.players):
                first = names.index(state.players[0])  # R7: turns go round the table
                if names[first:] + names[:first] == list(state.players):
                    return seats
    return [(name, "", _kind_of(name)) for name in state.players]


#: A computer's name as the start screen gives it in English: "Owl (Hard)".
_COMPUTER = re.compile(r"\((easy|normal|hard)\)$", re.IGNORECASE)


def _kind_of(name: str) -> str:
    """A record without its table (written before records kept one): a name ending in a
    level in brackets was a computer's (a typed name cannot hold brackets)."""
    found = _COMPUTER.search(name)
    return found.group(1).lower() if found else HUMAN


def _reads(raw: Any, state: GameState) -> tuple[list[int], list[int]]:
    """Per player (turn order): how many of the computers' kept guesses named their clan
    right, and how many there were. Unreadable entries are skipped."""
    n = state.num_players
    right, guessed = [0] * n, [0] * n
    if not isinstance(raw, list):
        return right, guessed
    for g in raw:
        if not isinstance(g, Mapping):
            continue
        by, of, clan = g.get("by"), g.get("of"), g.get("clan")
        if not (type(by) is int and type(of) is int and 0 <= by < n and 0 <= of < n
                and by != of and clan in CLANS):
            continue
        guessed[of] += 1
        right[of] += clan == state.clan_of(of)
    return right, guessed


def game_to_json(game: PastGame) -> dict[str, Any]:
    """Everything in ``game`` as JSON (the index's cache; :func:`game_from_json` reads it)."""
    return {"date": game.date.isoformat(), "end": game.end, "moves": game.moves,
            "players": [[p.name, p.avatar, p.kind, p.clan, p.clan_points, p.chips, p.score,
                         p.winner, p.read_right, p.guessed] for p in game.players]}


def game_from_json(file: str, data: Any) -> PastGame:
    """The game :func:`game_to_json` wrote; raises KeyError, TypeError or ValueError."""
    players = []
    for row in data["players"]:
        name, avatar, kind, clan, points, chips, score, winner, right, guessed = row
        if not (isinstance(name, str) and isinstance(avatar, str) and isinstance(kind, str)
                and clan in CLANS and isinstance(winner, bool)
                and 0 < len(name) <= MAX_NAME_LENGTH):  # as the rules bound it
            raise ValueError("bad player")
        players.append(PastPlayer(name, avatar, kind, clan, int(points), int(chips),
                                  int(score), winner, int(right), int(guessed)))
    date = datetime.fromisoformat(data["date"])
    if date.tzinfo is None or not players:
        raise ValueError("bad game")
    return PastGame(file, date, tuple(players), str(data["end"]), int(data["moves"]))
