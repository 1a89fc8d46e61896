"""``peeking``: a level for measuring only, Hard told every player's true clan.

Hard searches determinisations drawn from its belief about the others' clans (read from
their moves, R22). The peeking player searches the same way, with the same settings and
budget, but every determinisation is the truth: what Hard would play if reading the table
cost nothing. Hard against it tells how much reading the table still costs.

It breaks the secrecy the game is built on (R22), so it lives here, beside the tournament
that has the real game state to tell it, and never in the package: the game cannot offer
or construct it (tests/test_peeking.py).

``peeking-normal`` (:data:`LEVEL_NORMAL`) is Normal's search (settings and budget) told the
clans the same way. Normal reads the table (its guesses) but searches every assignment
alike; told the truth, it plays as a Normal that used a perfect reading would. At 2 players
it is "an opponent handed Hard's true clan": Hard against it, beside Hard against Normal,
measures what being read costs Hard against a Normal reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from clans_pi.bots.base import Assignment, Budget
from clans_pi.bots.parallel import SearchPool
from clans_pi.bots.search_bot import LEVEL_SETTINGS, SearchBot
from clans_pi.rules.board import Board
from clans_pi.rules.constants import CLANS
from clans_pi.rules.epochs import EpochChart
from clans_pi.rules.observation import Observation

LEVEL = "peeking"
#: Normal's search told the clans.
LEVEL_NORMAL = "peeking-normal"
#: The search level each peeking level searches as.
SEARCHES_AS = {LEVEL: "hard", LEVEL_NORMAL: "normal"}


class PeekingBot(SearchBot):
    """Hard's search (:data:`LEVEL_SETTINGS` ``"hard"``; ``level`` :data:`LEVEL_NORMAL`:
    Normal's) with ``clans``, every player's true clan in turn order, as its only
    determinisation; it does not hide its own clan (``hiding`` 0)."""

    def __init__(self, board: Board, chart: EpochChart, clans: Sequence[str], *,
                 seed: int | None = None, budget: Budget | None = None,
                 pool: SearchPool | None = None, level: str = LEVEL) -> None:
        searches_as = SEARCHES_AS[level]
        # Not hiding (weight 0): the yardstick is the level as it searched before it hid its clan,
        # told the truth, so that what reading the table is worth is all it measures.
        super().__init__(board, chart, level=searches_as, seed=seed, budget=budget,
                         settings=replace(LEVEL_SETTINGS[searches_as], hiding=0.0), pool=pool)
        self.level = level
        self.clans: Assignment = tuple(clans)

    def determinisations(self, obs: Observation) -> tuple[list[Assignment], list[float]]:
        """The truth, with probability 1."""
        assert obs.viewer is not None and self.clans[obs.viewer] == obs.own_clan, (
            "a peeking bot told the clans of another game")
        return [self.clans], [1.0]

    def guess(self, obs: Observation) -> dict[int, dict[str, float]]:
        """The truth: it was told."""
        return {p: {c: float(c == clan) for c in CLANS}
                for p, clan in enumerate(self.clans) if p != obs.viewer}
