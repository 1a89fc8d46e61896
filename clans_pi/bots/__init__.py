"""Computer players. They see what a player at the table sees, nothing more (R22)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import LEVELS, Bot, Budget, Cancelled

if TYPE_CHECKING:
    from ..rules.board import Board
    from ..rules.epochs import EpochChart
    from .parallel import SearchPool

__all__ = ["LEVELS", "Bot", "Budget", "Cancelled", "make_bot"]


def make_bot(
    level: str,
    board: Board,
    chart: EpochChart,
    *,
    seed: int | None = None,
    budget: Budget | None = None,
    pool: SearchPool | None = None,
) -> Bot:
    """A computer player of ``level`` (one of :data:`LEVELS`: easy, normal, hard).

    ``budget`` None gives the level's default (Hard about 1 s a move, Normal a fixed number
    of iterations, Easy does not search); ``seed`` makes it reproducible (with an iteration
    budget).
    """
    if level == "easy":
        from .easy import EasyBot

        return EasyBot(board, chart, seed=seed, budget=budget)
    if level in ("normal", "hard"):
        from .search_bot import SearchBot

        return SearchBot(board, chart, level=level, seed=seed, budget=budget, pool=pool)
    raise ValueError(f"unknown computer level {level!r}: one of {', '.join(LEVELS)}")
