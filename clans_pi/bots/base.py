"""What every computer player shares: the interface, the levels, and rebuilding a game from
what a player may know.

A bot decides from its own :class:`~clans_pi.rules.observation.Observation` only: its own
clan plus public information (R22). It never receives a :class:`GameState` of the real
game. To search, it rebuilds a game from the observation's public deal and moves with
*hypothesised* clans for the others (:func:`rebuild`). In Clans the hidden clans never
change what a move does (villages, strife and clan points depend on hut colours, not on
who owns them); they only decide whose score a clan's points are (R20). So one rebuilt game
serves every hypothesis; :func:`score_under` scores it for any of them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Protocol

from ..rules.board import Board
from ..rules.constants import CLANS
from ..rules.epochs import EpochChart
from ..rules.moves import Move
from ..rules.observation import Observation
from ..rules.state import GameState

#: Levels offered at the start screen, weakest first.
LEVELS = ("easy", "normal", "hard")

#: A clan for each player, in turn order (one hypothesis about the secret).
Assignment = tuple[str, ...]


class Cancelled(Exception):
    """The search was cancelled (undo, quit, a new game) before it chose a move."""


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: ``seconds`` of wall time, or exactly ``iterations`` of
    search when given (reproducible: tests and tournaments that must not depend on the
    machine's speed)."""

    seconds: float = 1.0
    iterations: int | None = None


class Bot(Protocol):
    """A computer player. ``seed`` makes it reproducible: the same observation, budget in
    iterations and seed give the same move."""

    level: str

    def choose(self, obs: Observation, *, cancel: threading.Event | None = None) -> Move:
        """A legal move (with its village order when it founds two or more, R11) for
        ``obs.viewer``, who is to move. Raises :class:`Cancelled` when ``cancel`` is set
        during the search."""
        ...

    def guess(self, obs: Observation) -> dict[int, dict[str, float]]:
        """What the bot believes now: for every *other* player, the probability of each
        clan (each player's probabilities sum to 1; its own clan has probability 0)."""
        ...


def assignments(num_players: int, viewer: int, own_clan: str) -> list[Assignment]:
    """Every clan assignment consistent with what ``viewer`` knows: ``viewer`` has
    ``own_clan``, every player a different clan (R5). 4, 12 or 24 of them for 2, 3 or 4
    players, in a fixed order."""
    others = [c for c in CLANS if c != own_clan]
    out = []
    for combo in permutations(others, num_players - 1):
        clans = list(combo)
        clans.insert(viewer, own_clan)
        out.append(tuple(clans))
    return out


def rebuild(obs: Observation, board: Board, chart: EpochChart,
            clans: Sequence[str] | None = None) -> GameState:
    """The game as ``obs`` shows it, with ``clans`` (default: the first consistent
    assignment) as the players' clans. Public deal and moves only; the moves were legal in
    the real game, so they are pushed unchecked."""
    if clans is None:
        if obs.viewer is None or obs.own_clan is None:
            raise ValueError("rebuild needs a player's observation (or explicit clans)")
        clans = assignments(len(obs.players), obs.viewer, obs.own_clan)[0]
    state = GameState(board, chart, obs.players, clans, obs.initial_huts)
    for move in obs.moves:
        state.push(move, undo=False)
    return state


def score_under(state: GameState, clans: Sequence[str]) -> tuple[int, ...]:
    """Each player's score (R20) if the players' clans were ``clans``."""
    points, chips = state.clan_points, state.chips
    return tuple(points[c] + chips[i] for i, c in enumerate(clans))
