"""Game records (``clans-record/1``), saved games (``clans-state/1``) and replay results.

A record holds the deal and the moves; replaying it checks every move. Reading works on
already-parsed JSON (dicts and lists): the file system is the caller's business.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import Board
from .constants import CLANS, NUM_TERRITORIES
from .epochs import EpochChart
from .errors import ClansError, RecordError
from .moves import Move
from .state import GameState

RECORD_FORMAT = "clans-record/1"
STATE_FORMAT = "clans-state/1"


def to_record(state: GameState) -> dict[str, Any]:
    """Return ``state``'s deal and moves as a ``clans-record/1`` dict.

    The record holds every player's clan: it is for saving and replaying, never for showing.
    """
    if not state.initial_huts:
        raise RecordError("a game set up from a position has no deal to record")
    moves: list[dict[str, Any]] = []
    for m in state.moves:
        entry: dict[str, Any] = {"from": m.src, "to": m.dst}
        if m.order is not None:
            entry["order"] = list(m.order)
        moves.append(entry)
    return {
        "format": RECORD_FORMAT,
        "players": list(state.players),
        "clans": list(state.clans),
        "huts": {str(t): CLANS[c] for t, c in enumerate(state.initial_huts)},
        "moves": moves,
    }


def replay(data: Any, board: Board, chart: EpochChart, *, undo: bool = True) -> GameState:
    """Replay a ``clans-record/1`` dict, checking the set-up and every move.

    Raises :class:`RecordError` with one line naming what is wrong and where, e.g.
    ``move 7: territory 12 is empty`` (moves are numbered from 1). ``undo=False``: the
    state cannot take its moves back (:meth:`GameState.pop`), which replays faster.
    """
    if not isinstance(data, Mapping):
        raise RecordError("record: expected a JSON object at the top level")
    fmt = data.get("format")
    if fmt != RECORD_FORMAT:
        raise RecordError(f"record: 'format' is {fmt!r}, expected {RECORD_FORMAT!r}")
    for key in ("players", "clans", "huts", "moves"):
        if key not in data:
            raise RecordError(f"record: '{key}' is missing")
    players, clans, huts, moves = data["players"], data["clans"], data["huts"], data["moves"]
    if not isinstance(players, list):
        raise RecordError("record: 'players' must be a list of names")
    if not isinstance(clans, list):
        raise RecordError("record: 'clans' must be a list of clans")
    if not isinstance(huts, Mapping):
        raise RecordError("record: 'huts' must be an object of territory id -> clan")
    if not isinstance(moves, list):
        raise RecordError("record: 'moves' must be a list")
    by_id: dict[int, str] = {}
    for key, clan in huts.items():
        if (
            not isinstance(key, str)
            or not key.isascii()
            or not key.isdigit()
            or (len(key) > 1 and key[0] == "0")
        ):
            raise RecordError(f"huts: {key!r} is not a territory id")
        tid = int(key)
        if tid in by_id:
            raise RecordError(f"huts: territory {tid} is listed twice")
        by_id[tid] = clan
    if len(by_id) != NUM_TERRITORIES:
        raise RecordError(
            f"huts: {len(by_id)} entries; one hut per territory needs {NUM_TERRITORIES} (R5)"
        )
    try:
        state = GameState(board, chart, players, clans, by_id)
    except ClansError as exc:
        raise RecordError(str(exc)) from None
    for i, raw in enumerate(moves, start=1):
        move = _parse_move(i, raw)
        try:
            state.replay_move(move, undo=undo)
        except ClansError as exc:
            raise RecordError(f"move {i}: {exc}") from None
    return state


def _parse_move(i: int, raw: Any) -> Move:
    where = f"move {i}"
    if not isinstance(raw, Mapping):
        raise RecordError(f'{where}: expected an object like {{"from": 3, "to": 4}}')
    src, dst, order = raw.get("from"), raw.get("to"), raw.get("order")
    for key, value in (("from", src), ("to", dst)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise RecordError(f"{where}: '{key}' must be a territory id, not {value!r}")
    if order is not None:
        if not isinstance(order, list) or not all(
            isinstance(t, int) and not isinstance(t, bool) for t in order
        ):
            raise RecordError(f"{where}: 'order' must be a list of territory ids")
        order = tuple(order)
    return Move(src, dst, order)


def result(state: GameState) -> dict[str, Any]:
    """The outcome so far, as ``clans-pi replay`` prints it (holds every clan: R20 view)."""
    return {
        "clan_points": state.clan_points,
        "chips": list(state.chips),
        "scores": list(state.scores()),
        "winners": list(state.winners()),
        "villages": [v.to_dict() for v in state.villages],
        "end": state.end_reason or "in_progress",
    }


def to_json(state: GameState) -> dict[str, Any]:
    """A saved game: ``{"format": "clans-state/1", "board": id, "chart": {...}, "record": {...}}``.

    Loading replays the record, so a save can never hold an impossible position.
    """
    return {
        "format": STATE_FORMAT,
        "board": state.board.id,
        "chart": state.chart.to_dict(),
        "record": to_record(state),
    }


def from_json(data: Any, board: Board) -> GameState:
    """Load a saved game written by :func:`to_json` onto ``board``; raise RecordError."""
    if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
        raise RecordError(f"saved game: expected an object with 'format': {STATE_FORMAT!r}")
    if data.get("board") != board.id:
        raise RecordError(
            f"saved game: it was played on board {data.get('board')!r}, not {board.id!r}"
        )
    try:
        chart = EpochChart.from_dict(data.get("chart"))
    except ClansError as exc:
        raise RecordError(f"saved game: {exc}") from None
    return replay(data.get("record"), board, chart)
