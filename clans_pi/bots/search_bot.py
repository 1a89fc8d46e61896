"""The Normal and Hard computer players: :mod:`.ismcts` search from a player's own view.

Both rebuild the public game from their observation (:func:`.base.rebuild`) and search it
with determinisations of the other players' clans. They differ in how long they think, how
well they read the others and how the search spends its iterations (settings in
:data:`LEVEL_SETTINGS`):

* **Hard** (1 s a move) samples each determinisation from its belief about the others'
  clans (:class:`.belief.BeliefTracker`: Bayesian, updated after every observed move), and
  searches selectively: progressive widening over children in the order of the heuristic
  (:func:`.heuristic.clan_values`) for the mover's clan as it believes it to be.
* **Normal** (:data:`NORMAL_ITERATIONS` a move, whatever the machine) samples the
  others' clans uniformly and runs plain UCT: every move tried once, in random order,
  before any is tried again.

Both also hide their own clan (:attr:`LevelSettings.hiding`). While its workers search
(or before searching, on one core), the bot works out for each legal move how plainly it
would show the bot's clan to the reader the game's reader expects a hider to hide from
(:func:`hidden_from`: an open reader; :class:`.belief.OwnReading`, :func:`.belief.exposure`;
its own public moves only, R22), so that the game's reader models the levels' hiding as
they do it; after the search, among the root's moves searched at least a quarter as often
as the most searched, it plays the best mean reward less the weight times that
probability. A root-level term, one move ahead: the search below does not model readers
reacting.

Both guess the others' clans from the same belief (shown at the reveal). Reproducible: the
search's random numbers are seeded from ``(seed, viewer, ply)``, so the same observation,
seed and iteration budget give the same move whatever was asked before.

Measured at equal time (0.3 s a move, 100 2-player games each, both sampling from the
belief): belief sampling beat uniform sampling 61 % (plain UCT, equal iterations);
widening 1.0 with the heuristic order beat plain UCT 71.5 %; widening 0.5 beat 1.0 63 %.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass

from ..rules.board import Board
from ..rules.constants import CLAN_INDEX
from ..rules.epochs import EpochChart
from ..rules.moves import Move
from ..rules.observation import Observation
from . import belief as belief_module
from .base import Assignment, Budget, Cancelled, assignments, rebuild
from .belief import Belief, BeliefTracker, OwnReading, ReaderModel
from .ismcts import Result, Settings, actions_with_orders, clan_weights, decode
from .parallel import Job, PoolBroken, SearchPool, run_job
from .tree import Tree

__all__ = ["LEVEL_SETTINGS", "NORMAL_ITERATIONS", "LevelSettings", "SearchBot"]

log = logging.getLogger(__name__)

#: Part of a seconds budget kept back for what follows the search's deadline (its last
#: iteration, freeing the tree, choosing the move): the whole move, belief update
#: included, stays within the budget.
SAFETY = 0.02


@dataclass(frozen=True)
class LevelSettings:
    """What a search level does: its default budget, its search, and whether it samples
    the others' clans from its belief (else uniformly)."""

    budget: Budget
    search: Settings
    belief_sampling: bool
    #: Start each search from the last one's tree where the game went (:mod:`.tree`).
    reuse: bool = False
    #: The weight of being read: the move chosen maximises its mean reward
    #: minus ``hiding`` times the probability a reader would give the bot's true clan after
    #: it (:func:`.belief.exposure`), among the root's moves searched at least
    #: ``hide_share`` as often as the most searched one. 0: the most searched move.
    hiding: float = 0.0
    hide_share: float = 0.25
    #: How it reads the others' clans, for its guesses and its determinisations
    #: (:class:`.belief.ReaderModel`); None: the game's reader, :data:`.belief.MODEL`.
    reader: ReaderModel | None = None
    #: The reader it hides from (:class:`.belief.OwnReading`); None: the one the game's
    #: reader expects a hider to hide from (:func:`hidden_from`).
    hides_from: ReaderModel | None = None


#: Normal's iterations a move, on any machine and either path, shared out over the search
#: workers as every budget is: about as strong as it was on a Pi (three workers of 0.2 s on
#: the Python path: 1,650; one desktop core: 2,200), answering at once with the compiled
#: core (docs/computer-players.md).
NORMAL_ITERATIONS = 2_000

LEVEL_SETTINGS: dict[str, LevelSettings] = {
    "normal": LevelSettings(Budget(iterations=NORMAL_ITERATIONS), Settings(),
                            belief_sampling=False, hiding=0.3),
    "hard": LevelSettings(
        Budget(seconds=1.0), Settings(widening=0.5, ordered=True), belief_sampling=True,
        reuse=True, hiding=1.0,
    ),
}


def hidden_from() -> ReaderModel:
    """The reader the levels hide from: the one the game's reader (:data:`.belief.MODEL`)
    expects its hiders to hide from (an open reader unless its ``hides_from`` says
    another), so that it models a hiding level's choice as that level makes it. A level
    hiding from the game's reader itself would fool it: the next step of the regress,
    which the game's reader does not model (docs/journal.md, 2026-12-02)."""
    return belief_module.MODEL.hides_from or belief_module.OPEN_MODEL


@dataclass(frozen=True)
class SearchStats:
    """The last decision: iterations searched and the time it took (for tournaments)."""

    iterations: int
    seconds: float
    result: Result | None  # None when there was only one choice


class SearchBot:
    """A computer player that searches (level ``"normal"`` or ``"hard"``)."""

    def __init__(
        self,
        board: Board,
        chart: EpochChart,
        *,
        level: str = "hard",
        seed: int | None = None,
        budget: Budget | None = None,
        settings: LevelSettings | None = None,
        pool: SearchPool | None = None,
    ) -> None:
        if settings is None:
            if level not in LEVEL_SETTINGS:
                raise ValueError(f"unknown search level {level!r}: one of {list(LEVEL_SETTINGS)}")
            settings = LEVEL_SETTINGS[level]
        self.level = level
        self.board = board
        self.chart = chart
        self.seed = seed
        self.settings = settings
        self.budget = budget if budget is not None else settings.budget
        self.last: SearchStats | None = None
        #: Worker processes to search on (:mod:`.parallel`); None: this process, one core.
        self.pool = pool
        self._tracker = BeliefTracker(board, chart, model=settings.reader)
        # How the table reads this bot (hiding): as the reader that the game's reader
        # expects a hider to hide from (its model of a hider is then exactly this bot's).
        self._own = OwnReading(board, chart, model=settings.hides_from or hidden_from())
        self._lock = threading.Lock()  # the UI may ask for a guess while a search runs
        self._searching = threading.Lock()
        self._owner = uuid.uuid4().hex  # names this bot's trees in the pool's workers
        self._trees: dict[str, Tree] = {}  # its tree when it searches here

    # ------------------------------------------------------------------ belief

    def _belief(self, obs: Observation) -> Belief:
        """The belief after the moves of ``obs`` (Bayesian, from the moves only)."""
        with self._lock:
            return self._tracker.update(obs)

    def guess(self, obs: Observation) -> dict[int, dict[str, float]]:
        """For every other player, the probability of each clan (own clan: 0), read from
        their moves (:class:`.belief.BeliefTracker`); certain once the game is over (R20)."""
        return self._belief(obs).marginals()

    def determinisations(self, obs: Observation) -> tuple[list[Assignment], list[float]]:
        """The clan assignments the search imagines and the probability of each: the
        belief's (Hard) or every consistent assignment alike (Normal)."""
        if self.settings.belief_sampling:
            belief = self._belief(obs)
            return belief.hypotheses, belief.probs
        assert obs.viewer is not None and obs.own_clan is not None
        hyps = assignments(len(obs.players), obs.viewer, obs.own_clan)
        return hyps, [1.0 / len(hyps)] * len(hyps)

    # ------------------------------------------------------------------ moves

    def choose(self, obs: Observation, *, cancel: threading.Event | None = None) -> Move:
        """The move the search prefers for ``obs.viewer`` (see :class:`~.base.Bot`).

        With a seconds budget the whole call (rebuilding the game, updating the belief,
        searching) ends within it, but for the last iteration and a little
        (:data:`SAFETY`). A move with no alternative is made without searching. With a
        pool (``workers`` > 1) every worker searches until the deadline, or its share of
        an iteration budget (:mod:`.parallel`).
        """
        start = time.monotonic()
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        if obs.viewer is None or obs.own_clan is None:
            raise ValueError("a bot needs its own player's observation, not the public view")
        if obs.end is not None:
            raise ValueError("the game is over: there is no move to choose")
        if obs.current_player != obs.viewer:
            raise ValueError(
                f"it is player {obs.current_player}'s turn, not this bot's ({obs.viewer})"
            )
        with self._searching:  # a cancelled search of this bot ends within an iteration
            return self._choose(obs, start, cancel)

    def _choose(self, obs: Observation, start: float,
                cancel: threading.Event | None) -> Move:
        assert obs.viewer is not None and obs.own_clan is not None
        clans = assignments(len(obs.players), obs.viewer, obs.own_clan)[0]
        state = rebuild(obs, self.board, self.chart, clans)
        codes, orders = actions_with_orders(state)
        if len(codes) == 1:  # nothing to think about
            self.last = SearchStats(0, time.monotonic() - start, None)
            return decode(codes[0], orders)
        hyps, probs = self.determinisations(obs)
        # How the table would read each move (hiding): worked out while the workers search,
        # or else before the search here, so that its time is inside the move's budget.
        readings: list[dict[Move, float]] = []
        hiding = bool(self.settings.hiding)
        hypotheses = tuple(_indices(h) for h in hyps)
        # Each player's clan probabilities (the viewer's own clan is certain).
        weights = clan_weights(hypotheses, probs)
        job = Job(
            owner=self._owner,
            game=(obs.viewer, obs.own_clan, obs.players, obs.initial_huts),
            players=obs.players,
            clans=clans,
            initial_huts=obs.initial_huts,
            moves=obs.moves,
            hypotheses=hypotheses,
            probs=tuple(probs),
            weighted=self.settings.belief_sampling,
            settings=self.settings.search,
            clan_weights=tuple(tuple(w) for w in weights),
            seed=f"{self.seed}:{obs.viewer}:{obs.ply}" if self.seed is not None else None,
            reuse=self.settings.reuse,
        )
        budget = self.budget
        deadline = None
        if budget.iterations is None:
            deadline = start + budget.seconds * (1.0 - SAFETY)
        result = None
        pool = self.pool
        if pool is not None and pool.usable:
            try:
                if pool.ready():  # else this move here, while the workers start
                    result = pool.search(
                        job, iterations=budget.iterations, deadline=deadline, cancel=cancel,
                        meanwhile=(lambda: readings.append(self.reading(obs))) if hiding
                        else None)
            except PoolBroken as exc:  # searched here instead, on one core
                if cancel is not None and cancel.is_set():
                    raise Cancelled() from None  # e.g. systemctl stop: the workers went first
                log.warning("searching on one core: %s", exc)
        if result is None:
            if hiding and not readings:
                readings.append(self.reading(obs))
            result = run_job(job, self.board, self.chart, self._trees, state=state,
                             iterations=budget.iterations, deadline=deadline, cancel=cancel)
        move = result.move
        if readings and result.values:
            move = self._hiding_choice(result, readings[0])
        self.last = SearchStats(result.iterations, time.monotonic() - start, result)
        return move

    def reading(self, obs: Observation) -> dict[Move, float]:
        """For each legal move, the probability a reader would give this bot's true clan
        after it (:func:`.belief.exposure`), from the public moves and its own clan only
        (R22): the same for any clans of the others."""
        assert obs.own_clan is not None
        return self._own.exposures(self._own.update(obs), obs.own_clan)

    def _hiding_choice(self, result: Result, reading: dict[Move, float]) -> Move:
        """Among the root's well-searched moves, the best mean reward less the weighted
        probability a reader would give this bot's true clan after the move (``reading``);
        ties: the search's own choice."""
        most = max(result.visits.values())
        weight = self.settings.hiding

        def score(move: Move) -> float:
            return result.values[move] - weight * reading[Move(move.src, move.dst)]

        candidates = [m for m, n in result.visits.items()
                      if n >= self.settings.hide_share * most]
        return max(candidates, key=lambda m: (score(m), m == result.move))


def _indices(assignment: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(CLAN_INDEX[c] for c in assignment)

