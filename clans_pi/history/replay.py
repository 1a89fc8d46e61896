"""A finished game replayed move by move through the engine, for looking back at it: step
forward and back a move at a time or an epoch at a time, or jump to any move.

Built only from a record that replays legally to its end (:func:`past_game_of` checks
it); every position shown is the engine's own state after that many moves, so the board can
never be drawn wrong. The game is over, so its clans are public (R20): :attr:`game` holds
them beside each position's public view.
"""

from __future__ import annotations

from typing import Any

from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.observation import Observation
from ..rules.record import replay
from ..session import Seat, Session
from .past_game import PastGame, past_game_of


class GameReplay:
    """The finished game in ``record`` (parsed JSON), kept as ``file``; it starts at the
    deal (move 0). Raises :class:`~clans_pi.rules.errors.RecordError` for a damaged record."""

    def __init__(self, record: Any, file: str, board: Board, chart: EpochChart) -> None:
        self._state = replay(record, board, chart)  # at the end; pop() steps back
        self.record = record  # what the reading of how well each player hid is read from
        self.game: PastGame = past_game_of(self._state, record, file)
        self.moves = self._state.moves
        self.total = len(self.moves)
        self.board = board
        self.chart = chart
        # The final position as a session (seats in table order): the reveal's table.
        self.final = Session(self._state.copy(), self.seats)
        # The moves after which a new epoch's chips are next (R16): where epoch steps stop.
        self._views: dict[int, Observation] = {}
        self.epoch_starts = self._epoch_starts()
        self.go(0)

    @property
    def seats(self) -> list[Seat]:
        """The players in table order, as seats (name, picture, who played)."""
        return [Seat(p.name, p.avatar, p.kind) for p in self.game.players]

    @property
    def ply(self) -> int:
        """How many moves have been played in the position shown."""
        return self._state.ply

    @property
    def at_end(self) -> bool:
        return self.ply == self.total

    def _epoch_starts(self) -> list[int]:
        starts = []
        last = None
        for k in range(self.total + 1):
            self.go(k)
            if self._state.epoch != last:
                starts.append(k)
                last = self._state.epoch
        return starts

    def go(self, ply: int) -> Observation:
        """The position after ``ply`` moves (clamped to the game), its public view."""
        ply = max(0, min(self.total, ply))
        state = self._state
        while state.ply > ply:
            state.pop()
        while state.ply < ply:
            state.push(self.moves[state.ply])
        return self.view()

    def view(self) -> Observation:
        """The public view of the position shown (the board, villages, score track)."""
        ply = self.ply
        if ply not in self._views:
            self._views[ply] = self._state.observation(None)
        return self._views[ply]

    def step(self, by: int) -> Observation:
        """``by`` moves forward (negative: back)."""
        return self.go(self.ply + by)

    def next_epoch(self) -> Observation:
        """Forward to where the next epoch begins (or the end)."""
        later = [k for k in self.epoch_starts if k > self.ply]
        return self.go(later[0] if later else self.total)

    def previous_epoch(self) -> Observation:
        """Back to where this epoch began, or the one before when already there."""
        earlier = [k for k in self.epoch_starts if k < self.ply]
        return self.go(earlier[-1] if earlier else 0)

    def mover(self) -> int | None:
        """The table seat that played the last move shown (None at the deal)."""
        if self.ply == 0:
            return None
        return self.final.seat_of((self.ply - 1) % len(self.game.players))  # R7
