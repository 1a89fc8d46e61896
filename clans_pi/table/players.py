"""The table's computer players: one bot per seat and level, kept for the whole game (Hard's
belief and tree go on from move to move), searching on worker processes when the settings
give it more than one (``[computer] workers``, :mod:`clans_pi.bots.parallel`).
"""

from __future__ import annotations

import logging
import random
import threading

from ..bots import Bot, Budget, make_bot
from ..bots.parallel import SearchPool, auto_workers
from ..rules.board import Board
from ..rules.epochs import EpochChart

log = logging.getLogger(__name__)

__all__ = ["ComputerPlayers"]

class ComputerPlayers:
    """Makes the computer player for a seat (the table's ``bots``): Hard thinks
    ``think_seconds`` a move, Normal searches its fixed iterations (its level's budget,
    :data:`~clans_pi.bots.search_bot.LEVEL_SETTINGS`), Easy does not search. A seat keeps its
    bot, so it reads the others from every move once, not again from the deal each turn
    (a bot sees a new game or an undo by itself and starts again). Each seat has its own
    fixed seed, so the same position gets the same move again (after an undo, say).

    ``workers`` None uses every core but one; 1 searches on the game's own process. The
    workers start with the first searching bot and stop at :meth:`close`."""

    def __init__(self, board: Board, chart: EpochChart, think_seconds: float, *,
                 seed: int | None = None, workers: int | None = None) -> None:
        self.board, self.chart = board, chart
        self.think_seconds = think_seconds
        self.seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        self.workers = auto_workers() if workers is None else workers
        self.pool: SearchPool | None = None
        self._bots: dict[tuple[int, str], Bot] = {}
        self._lock = threading.Lock()
        self._closed = False

    def __call__(self, seat: int, level: str) -> Bot:
        with self._lock:
            bot = self._bots.get((seat, level))
            if bot is None:
                budget = Budget(seconds=self.think_seconds) if level == "hard" else None
                bot = make_bot(level, self.board, self.chart, seed=self.seed + 7919 * seat,
                               budget=budget,
                               pool=self._pool() if level != "easy" else None)
                self._bots[(seat, level)] = bot
            return bot

    def _pool(self) -> SearchPool | None:
        if self.pool is None and self.workers > 1 and not self._closed:
            try:
                self.pool = SearchPool(self.workers, self.board, self.chart)
                log.info("computer players search on %d worker processes", self.workers)
            except OSError as exc:  # no processes to be had: one core, as before
                log.warning("no search workers (%s): computer players search on one core",
                            exc)
                self.workers = 1
        return self.pool

    def close(self) -> None:
        """Stop the worker processes (the game ends); the bots search on one core after."""
        with self._lock:
            self._closed = True
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.close()
