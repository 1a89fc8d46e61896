"""What a bot believes about the other players' secret clans, read from how they play.

Hidden clans never change what a move does, only whose score a clan's points become (see
:mod:`.base`). So the whole secret is one of :func:`.base.assignments` (4, 12 or 24 of
them for 2, 3 or 4 players), and the only evidence about it is the other players' moves: a
player tends to make moves that are good for their own clan (R6, R22: nothing else about
it is public before the end).

The model, for each other player independently:

* with prior probability :data:`PURPOSEFUL` the player plays *for their clan* ``c``: a move
  with probability ``softmax(beta * value for c)`` over the legal moves
  (:func:`.heuristic.clan_values`), and its village order likewise over the orders
  (:func:`.heuristic.order_values`, R11), each mixed with :data:`EPSILON` of uniform so
  that no single move ever rules a clan out;
* otherwise the player moves *aimlessly*: uniformly at random, whatever their clan.

Each move multiplies every hypothesis by that move's probability under it (through the
mover's clan in it), given the player's earlier moves: a Bayesian update. The aimless
alternative keeps the belief honest about a player whose moves fit no clan better than
chance (a random mover, a beginner): their evidence stays near flat instead of piling up on
whichever clan luck favoured.

:data:`DEFAULT_BETA` was chosen by measurement (with PURPOSEFUL 0.5; 100 seeded games per
line-up of 2 to 4 players; the viewer's belief at the end, before the reveal): against
players who really play by the heuristic with beta 0.5, 1, 2 or greedily, the top guess
is right 75 %, 96-100 %, 97-100 % and 100 % of the time, and 94-98 % against players using
a differently tuned heuristic (chance: 25 % for one other player of a 2-player game). Against random
movers it is right 22 % of the time in 2-player games, with a mean top probability of
0.29: no false confidence. Beta 0.5 and 1.5 did slightly worse; without the aimless
alternative, the top guess about a random mover ended with 0.68 to 0.86 probability on
average.

The guesses are *calibrated* (2026-11-25, :mod:`.calibration`; scripts/research/belief_sweep.py on
69 recorded games of 2 to 4 players between Hard, Normal, Easy and random movers, 1500 and
400 iterations a move: 314 end-of-game guesses by Hard and Normal, before the reveal):
among the probabilities near p, about a fraction p were right. With :data:`PURPOSEFUL` 0.5
the belief was under-confident in the middle: top guesses held with 0.5 to 0.9 (mean 0.69)
were right 81 % of the time; 0.65 brings that to 0.68 and 73 %, the expected calibration
error from 0.037 to 0.018 and the Brier score from 0.338 to 0.328 (uniform guess: 0.75):
reading Normal 0.437 to 0.424, Easy 0.311 to 0.295, random movers 0.592 to 0.582, Hard
0.048 to 0.050; the top guess right as often (73.2 %, 73.6 %). Top guesses held with 0.9
or more were right 99 % of the time (mean 0.98). Other fixes did about as well, none
clearly better on these games: PURPOSEFUL 0.8 (Brier 0.326, the top guess right 72.3 %),
beta 0.75 with the moves' evidence raised to a power 1.25 to 2 (0.326-0.330); a power below
1 (0.6, 0.8) or beta 1.5 did worse. 0.65 is the one-constant change that keeps the top
guess as good. Against random movers, 2-player games: top guess right 29 % of 100, mean
top probability 0.27 (0.5) and 0.28 (0.65). On 24 held-out 4-player games (tournament,
seed 1) the change neither helped nor hurt (Brier 0.450, 0.453), and both settings read
the random mover worse than uniform: a misread player's clan is taken from the random
mover, whose moves cannot correct it (docs/journal.md, 2026-11-25).

:data:`MAX_ODDS` keeps every clan a player may hold strictly between 0 and 1 until the
reveal (R20): without it, a player who plays the heuristic's best moves ended a game with
1.0 on a clan in floating point. It changed the Brier score of those games by under 0.001.

**Players who hide.** Hard and Normal hide their clan (search_bot.py), and a reader that
takes every move at face value is confidently wrong about them: on 241 held-out games of
hiding levels every other seat's Brier score was 0.927 (uniform 0.750). So the model is a
:class:`ReaderModel`: a mixture over kinds of player, whose weights each player's moves
update. Besides the open and aimless players above, a player may *hide*
(:func:`hide_evidence`: good moves for their clan that keep a reader's probability of it
low), or play their clan in the open *sharply* (at a beta of their own).
:data:`OPEN_MODEL` is the reading described above. The game's reader, :data:`MODEL`, is
:data:`HIDING_AWARE`: it expects hiders who hide from an open reader, as Hard and Normal
do (search_bot.hidden_from), so it models the levels' hiding as they do it. It was fitted
on recorded games of four populations (open levels, hiding levels, random movers, a mix)
and of hiders at a Pi's budgets (scripts/research/reader_fit.py, 2026-12-02), and is
checked on games of another seed played by the game as it is:
docs/figures.md#calibration-populations. Most players are, to it, aimless (weight 0.93):
only moves that fit a kind well move it, and no run of moves gives one clan more than 50
times another's odds (``max_odds``); so it reads players who play their clan in the open
less sharply than :data:`OPEN_MODEL`, and hiders far better. A step further,
:data:`KNOWING_HIDERS` expects hiders who hide from a reader like :data:`HIDING_AWARE`
(``hides_from``): the bluffer who knows the table expects bluffs. It is honest about such
hiders, but a Hard that read with it and hid from :data:`HIDING_AWARE` lost nearly every
game to the Hard that reads and hides openly, which reads such a hider plainly and which
it misreads (docs/journal.md, 2026-12-02).

Cost: an update evaluates every legal move (about 1.3 ms here with :data:`OPEN_MODEL`,
about twice that with :data:`MODEL`, whose hiders' moves are weighed against every other
legal move; four times with :data:`KNOWING_HIDERS`); a 4-player game's replay from scratch
about 0.1 s with :data:`MODEL`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from ..rules.board import Board
from ..rules.constants import CLAN_INDEX, CLANS, MAX_PLAYERS, MIN_PLAYERS, NUM_CLANS
from ..rules.epochs import EpochChart
from ..rules.moves import Move
from ..rules.observation import Observation
from ..rules.state import GameState
from .base import Assignment, assignments
from .heuristic import clan_values, order_values, softmax

__all__ = [
    "DEFAULT_BETA",
    "EPSILON",
    "HIDING_AWARE",
    "MAX_ODDS",
    "MODEL",
    "OPEN_MODEL",
    "PURPOSEFUL",
    "Belief",
    "BeliefTracker",
    "Evidence",
    "OwnReading",
    "ReaderModel",
    "exposure",
    "hide_evidence",
    "move_evidence",
    "moves_evidence",
    "moves_read",
    "read_move",
]

#: How sharply a purposeful player prefers better moves (per point of heuristic value).
DEFAULT_BETA = 1.0

#: Share of uniform randomness mixed into a purposeful player's choice (a blunder, a move
#: the heuristic misjudges): the most one move can shift the odds between two clans.
EPSILON = 0.05

#: Prior probability that a player plays for their clan rather than aimlessly.
PURPOSEFUL = 0.65

#: The largest odds the moves alone can give one clan of a player over another: no run of
#: moves makes a clan certain (only the reveal does, R20). Also keeps every possible
#: clan's probability far from 0 and 1 in floating point (up to MAX_ODDS ** 3 between two
#: assignments of a 4-player game, within the 1e-16 that a float near 1 can tell apart).
MAX_ODDS = 1e4



@dataclass(frozen=True)
class ReaderModel:
    """How a reader expects players to play: the prior weight of each kind of player and
    how sharply each kind's moves follow its clan (see the module's words). ``open``
    plays for their clan in the open (:func:`move_evidence`, its summed log ratio raised
    to ``temper``); ``sharp`` plays for their clan in the open too, with its own
    sharpness (softmax at ``beta_sharp`` on the values, its log ratio times
    ``temper_sharp``: e.g. a search level that does not hide follows the heuristic more
    sharply than the weaker levels); ``hide`` plays for their clan while keeping down
    what a reader sees of it (:func:`hide_evidence`: ``beta_hide`` on the move's value,
    ``gamma`` on the probability the reader ``hides_from`` gives the clan after it, its
    log ratio times ``temper_hide``); the rest, ``1 - open - sharp - hide``, move
    aimlessly."""

    open: float
    hide: float = 0.0
    beta_hide: float = 1.0
    gamma: float = 0.0
    temper: float = 1.0
    temper_hide: float = 1.0
    sharp: float = 0.0
    beta_sharp: float = DEFAULT_BETA
    temper_sharp: float = 1.0
    #: The reader the hide kind hides from: None, an open reader (:data:`OPEN_MODEL`);
    #: or a reader that expects hiders itself (its own hiders hiding from an open
    #: reader, and no sharp kind of its own beta): a hider who knows that the table
    #: expects hiding.
    hides_from: ReaderModel | None = None
    #: The largest odds the moves alone can give one clan of a player over another
    #: (:data:`MAX_ODDS`, unless a reader is fitted with fewer: how sure its readings
    #: may become before the reveal).
    max_odds: float = MAX_ODDS

    def __post_init__(self) -> None:
        if not (self.open > 0.0 and self.hide >= 0.0 and self.sharp >= 0.0
                and self.open + self.hide + self.sharp < 1.0):
            raise ValueError(f"kind weights {self.open}, {self.hide}, {self.sharp}: each in "
                             "[0, 1), summing below 1 (some players move aimlessly)")
        if not 1.0 < self.max_odds <= MAX_ODDS:
            raise ValueError(f"max_odds {self.max_odds}: above 1 (else nothing is ever "
                             f"read) and at most {MAX_ODDS:g}")
        if self.beta_sharp <= 0.0:
            raise ValueError(f"beta_sharp {self.beta_sharp}: a sharp player prefers better "
                             "moves (above 0)")
        inner = self.hides_from
        if inner is not None and (inner.hides_from is not None or inner.sharp_apart
                                  or inner.hide <= 0.0):
            raise ValueError("a hider hides from an open reader or from one whose hiders "
                             "hide from an open reader (and who has no sharp kind apart)")

    @property
    def sharp_apart(self) -> bool:
        """Whether the sharp kind reads the moves at its own beta (not the open one's)."""
        return self.sharp > 0.0 and self.beta_sharp != DEFAULT_BETA

    @property
    def aimless(self) -> float:
        """The prior weight of an aimless player."""
        return 1.0 - self.open - self.hide - self.sharp


#: The reader that expects every player to play their clan in the open (or aimlessly):
#: what a hiding player hides from (:func:`exposure`, the hiding term of the search) and
#: what the hide kind of :data:`MODEL` assumes a hider hides from.
OPEN_MODEL = ReaderModel(open=PURPOSEFUL)

#: A reader that expects hiders who hide from an open reader, as the levels do (fitted
#: by scripts/research/reader_fit.py on games of that kind, at the budgets of the
#: calibration figures and at a Pi's: docs/journal.md, "How honest can one reader be
#: about each kind of player at once? (2026-12-02)"): the game's reader (:data:`MODEL`).
HIDING_AWARE = ReaderModel(open=0.0208, hide=0.046875, beta_hide=3.2, gamma=12.5,
                           temper=0.805, temper_hide=0.68, max_odds=50.0)

#: A reader that expects hiders who hide from a reader like :data:`HIDING_AWARE`, who
#: knows that players hide (scripts/research/reader_fit.py ``--level 2``, docs/journal.md
#: 2026-12-02): calibrated about such hiders, but against Hard as the game has it, whose
#: hiders hide from an open reader, a Hard reading with it and hiding from
#: :data:`HIDING_AWARE` lost 0.896 of 96 two-player games (both with HIDING_AWARE as fitted
#: on 2026-11-28; the hiders it expects now hide from today's); research, not the game's.
KNOWING_HIDERS = ReaderModel(open=0.065, hide=0.3125, beta_hide=0.64, gamma=40.0,
                             temper=0.463, temper_hide=0.6647, sharp=0.01, beta_sharp=1.955,
                             temper_sharp=0.85, hides_from=HIDING_AWARE, max_odds=8.0)

#: The one reader of the game: the computers' guesses, the clans their search imagines
#: and the after-game chart (:mod:`clans_pi.history.hiding`). It expects players who play
#: their clan in the open, players who hide it from an open reader (as Hard and Normal
#: do: search_bot.hidden_from) and aimless players: it models the levels' hiding as they
#: do it. Fitted on recorded games (see the module's words).
MODEL = HIDING_AWARE

#: One move's evidence, for each clan (CLANS order): the log ratio of its probability
#: for an open player of that clan (:func:`move_evidence`), for a hiding one
#: (:func:`hide_evidence`), for a sharp one (:func:`move_evidence` at the model's
#: ``beta_sharp``), each over an aimless player's; and for a hider of the reader the hide
#: kind hides from (``hides_from``; zeros when that is an open reader): what that reader
#: needs to read the mover's next moves.
Evidence = tuple[list[float], list[float], list[float], list[float]]

_TINY = 1e-300  # a positive probability never underflows to 0 (only facts give 0)
_LOG_P = math.log(PURPOSEFUL)
_LOG_Q = math.log(1.0 - PURPOSEFUL)
_LOG_MAX_ODDS = math.log(MAX_ODDS)


def move_evidence(state: GameState, move: Move, beta: float = DEFAULT_BETA) -> list[float]:
    """For each clan (CLANS order), ``log P(move | a purposeful player of that clan) -
    log P(move | an aimless player)``, the player to move in ``state`` having made
    ``move`` (with its village order; None counts as the engine's default, ascending).

    Raises ValueError if ``move`` is not legal in ``state``.
    """
    values, index = _values(state, move)
    return _open_ratios(state, move, values, index, beta)


def hide_evidence(state: GameState, move: Move, seen: Sequence[float],
                  model: ReaderModel = MODEL, inner: Sequence[float] | None = None
                  ) -> list[float]:
    """For each clan (CLANS order), ``log P(move | a hiding player of that clan) - log
    P(move | an aimless player)``, times ``model.temper_hide``: a hider of clan ``c``
    picks a move with probability ``softmax(beta_hide * value for c - gamma * the
    probability the reader model.hides_from gives c after it)`` (:func:`exposure` of the
    mover's ``seen``, their moves' summed :func:`move_evidence` so far, plus the move's;
    ``inner``: their summed evidence as that reader's hider, the last of
    :data:`Evidence`), mixed with :data:`EPSILON` of uniform. The village order says
    nothing of a hider.

    Raises ValueError if ``move`` is not legal in ``state``.
    """
    values, index = _values(state, move)
    per_clan = [softmax([v[c] for v in values], DEFAULT_BETA) for c in range(NUM_CLANS)]
    hidden, _ = _hide_columns(values, seen, model, per_clan, inner)
    return [column[index] for column in hidden]


def read_move(state: GameState, move: Move, seen: Sequence[float],
              model: ReaderModel = MODEL, inner: Sequence[float] | None = None
              ) -> Evidence:
    """The :data:`Evidence` of ``move`` (one evaluation of the moves; every reader of the
    table shares it): ``seen`` and ``inner`` are the mover's summed :func:`move_evidence`
    and evidence as a hider of ``model.hides_from`` before it (:meth:`Belief.read` passes
    them)."""
    values, index = _values(state, move)
    per_clan = [softmax([v[c] for v in values], DEFAULT_BETA) for c in range(NUM_CLANS)]
    ratios = _open_ratios(state, move, values, index, DEFAULT_BETA, per_clan)
    zeros = [0.0] * NUM_CLANS
    hidden, inside = zeros, zeros
    if model.hide > 0.0:
        columns, inner_columns = _hide_columns(values, seen, model, per_clan, inner)
        hidden = [column[index] for column in columns]
        if inner_columns is not None:
            inside = [column[index] for column in inner_columns]
    sharp = (_open_ratios(state, move, values, index, model.beta_sharp)
             if model.sharp_apart else ratios)
    return ratios, hidden, sharp, inside


def _read(state: GameState, move: Move, model: ReaderModel, beta: float,
          seen: Sequence[float], inner: Sequence[float]) -> Evidence:
    """The :data:`Evidence` of ``move`` for a reader with ``model``, given the mover's rows
    so far (``seen``, ``inner``): :func:`read_move` for a model with a hide kind or a sharp
    kind of its own beta, else only :func:`move_evidence` at ``beta`` (the other parts
    follow from it)."""
    if model.hide > 0.0 or model.sharp_apart:
        return read_move(state, move, seen, model, inner)
    ratios = move_evidence(state, move, beta)
    zeros = [0.0] * NUM_CLANS
    return ratios, zeros, ratios, zeros


def _values(state: GameState, move: Move) -> tuple[list, int]:
    moves = state.legal_moves()
    pair = Move(move.src, move.dst)
    try:
        index = moves.index(pair)
    except ValueError:
        raise ValueError(f"move {move} is not legal at ply {state.ply}") from None
    return clan_values(state, moves), index


def _open_ratios(state: GameState, move: Move, values: list, index: int, beta: float,
                 per_clan: list[list[float]] | None = None) -> list[float]:
    """:func:`move_evidence` from the moves' values (``per_clan``: their softmax at
    ``beta`` for each clan, if worked out already)."""
    if per_clan is None:
        per_clan = [softmax([v[c] for v in values], beta) for c in range(NUM_CLANS)]
    out = [_log_ratio(per_clan[c][index], len(values)) for c in range(NUM_CLANS)]
    pair = Move(move.src, move.dst)
    orders = state.village_orders(pair)
    if len(orders) > 1:
        order = tuple(move.order) if move.order is not None else state.founds(pair)
        options = order_values(state, pair)
        j = [o for o, _ in options].index(order)
        for c in range(NUM_CLANS):
            out[c] += _log_ratio(softmax([v[c] for _, v in options], beta)[j], len(options))
    return out


def _hide_columns(values: list, seen: Sequence[float], model: ReaderModel,
                  per_clan: list[list[float]], inner: Sequence[float] | None
                  ) -> tuple[list[list[float]], list[list[float]] | None]:
    """:func:`hide_evidence` of every move (a list per clan, the moves in order), and the
    same for a hider of ``model.hides_from`` (None when that is an open reader); ``seen``
    and ``inner``: the mover's rows (see :func:`hide_evidence`), ``per_clan`` the moves'
    softmax at :data:`DEFAULT_BETA` for each clan."""
    n = len(values)
    opened = [[seen[c] + _log_ratio(per_clan[c][i], n) for c in range(NUM_CLANS)]
              for i in range(n)]
    reader = model.hides_from
    inner_columns = None
    if reader is None:  # what an open reader would give each clan after each move
        shown = [_open_reading(row) for row in opened]
    else:  # what a reader who expects hiders would: its own hiders' evidence too
        inner_columns, _ = _hide_columns(values, seen, reader, per_clan, None)
        base = inner if inner is not None else [0.0] * NUM_CLANS
        log_w = _log_weights(reader)
        shown = [_reading(row, [base[c] + inner_columns[c][i] for c in range(NUM_CLANS)],
                          row, reader, log_w) for i, row in enumerate(opened)]
    out = []
    for c in range(NUM_CLANS):
        probs = softmax([model.beta_hide * values[i][c] - model.gamma * shown[i][c]
                         for i in range(n)], 1.0)
        out.append([model.temper_hide * _log_ratio(p, n) for p in probs])
    return out, inner_columns


def moves_read(state: GameState, seen: Sequence[float], model: ReaderModel = MODEL,
               inner: Sequence[float] | None = None) -> dict[Move, Evidence]:
    """:func:`read_move` of every legal move of ``state`` at once (one evaluation of the
    moves), without the village order's part (R11): ``seen`` and ``inner`` are the mover's
    rows so far (see :func:`read_move`). What a hiding player weighs before moving."""
    moves = state.legal_moves()
    values = clan_values(state, moves)
    n = len(moves)
    per_clan = [softmax([v[c] for v in values], DEFAULT_BETA) for c in range(NUM_CLANS)]
    opened = [[_log_ratio(per_clan[c][i], n) for c in range(NUM_CLANS)] for i in range(n)]
    sharp = opened
    if model.sharp_apart:
        keen = [softmax([v[c] for v in values], model.beta_sharp) for c in range(NUM_CLANS)]
        sharp = [[_log_ratio(keen[c][i], n) for c in range(NUM_CLANS)] for i in range(n)]
    zeros = [0.0] * NUM_CLANS
    if model.hide <= 0.0:
        return {m: (opened[i], zeros, sharp[i], zeros) for i, m in enumerate(moves)}
    hidden, inside = _hide_columns(values, seen, model, per_clan, inner)
    return {m: (opened[i], [hidden[c][i] for c in range(NUM_CLANS)], sharp[i],
                [inside[c][i] for c in range(NUM_CLANS)] if inside is not None else zeros)
            for i, m in enumerate(moves)}


def moves_evidence(state: GameState, beta: float = DEFAULT_BETA) -> dict[Move, list[float]]:
    """:func:`move_evidence` of every legal move of ``state`` at once (one evaluation of
    the moves), without the village order's part (R11: it says a little more, for the few
    moves that found two villages or more)."""
    moves = state.legal_moves()
    values = clan_values(state, moves)
    n = len(moves)
    per_clan = [softmax([v[c] for v in values], beta) for c in range(NUM_CLANS)]
    return {m: [_log_ratio(per_clan[c][i], n) for c in range(NUM_CLANS)]
            for i, m in enumerate(moves)}


def exposure(row: Sequence[float], clan: str, hid: Sequence[float] | None = None,
             model: ReaderModel = OPEN_MODEL, keen: Sequence[float] | None = None) -> float:
    """The probability an onlooker (who holds no clan) reading with ``model`` gives
    ``clan`` for a player whose moves' summed :func:`move_evidence` is ``row`` (and summed
    :func:`hide_evidence` ``hid`` and sharp evidence ``keen``, see :data:`Evidence`, for a
    model with those kinds; ``keen`` None: ``row``), nothing else known about the others:
    how plainly the moves show that clan (the odds between two clans capped at
    :data:`MAX_ODDS`, as in :class:`Belief`)."""
    if model == OPEN_MODEL:
        return _open_reading(row)[CLAN_INDEX[clan]]
    return _reading(row, hid if hid is not None else [0.0] * NUM_CLANS,
                    keen if keen is not None else row, model,
                    _log_weights(model))[CLAN_INDEX[clan]]


def _reading(row: Sequence[float], hid: Sequence[float], keen: Sequence[float],
             model: ReaderModel, log_w: tuple[float, float, float, float]) -> list[float]:
    """:func:`exposure` of every clan."""
    logs = _kind_logs(row, hid, keen, model, log_w)
    floor = max(logs) - math.log(model.max_odds)
    logs = [max(v, floor) for v in logs]
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    total = sum(weights)
    return [w / total for w in weights]


def _log_weights(model: ReaderModel) -> tuple[float, float, float, float]:
    """log of the prior weight of each kind: open, hide, sharp, aimless."""
    return tuple(math.log(w) if w else -math.inf  # type: ignore[return-value]
                 for w in (model.open, model.hide, model.sharp, model.aimless))


def _kind_logs(row: Sequence[float], hid: Sequence[float], keen: Sequence[float],
               model: ReaderModel, log_w: tuple[float, float, float, float]) -> list[float]:
    """For each clan, log P(a player's moves | that clan), up to a common constant, summed
    over the kinds of player of ``model``, from their summed log ratios as an open player
    ``row``, a hiding one ``hid`` and a sharp one ``keen``."""
    w_open, w_hide, w_sharp, w_aim = log_w
    temper, temper_sharp = model.temper, model.temper_sharp
    logs = []
    for a, b, k in zip(row, hid, keen, strict=True):
        terms = (w_open + temper * a, w_hide + b, w_sharp + temper_sharp * k, w_aim)
        top = max(terms)
        logs.append(top + math.log(sum(math.exp(t - top) for t in terms)))
    return logs


def _open_reading(row: Sequence[float]) -> list[float]:
    """:func:`exposure` of every clan."""
    logs = [_log_evidence(total) for total in row]
    floor = max(logs) - _LOG_MAX_ODDS
    logs = [max(v, floor) for v in logs]
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    total = sum(weights)
    return [w / total for w in weights]


def _log_ratio(p: float, n: int) -> float:
    """log of (purposeful probability mixed with EPSILON of uniform) / uniform."""
    return math.log(((1.0 - EPSILON) * p + EPSILON / n) * n)


def _log_evidence(total: float) -> float:
    """log of (PURPOSEFUL * e**total + (1 - PURPOSEFUL)): a player's moves so far,
    relative to an aimless player's, when their summed log ratio is ``total``."""
    a, b = _LOG_P + total, _LOG_Q
    top = max(a, b)
    return top + math.log(math.exp(a - top) + math.exp(b - top))


class Belief:
    """A probability for each assignment of clans to the players that ``viewer`` (whose
    clan is ``own_clan``) cannot rule out; ``viewer`` and ``own_clan`` None: an onlooker's,
    who holds no clan (every assignment of different clans to the players; the past games'
    reading of how well each player hid, :mod:`clans_pi.history.hiding`).

    ``hypotheses`` is :func:`.base.assignments` (fixed order); ``probs`` the probability of
    each, summing to 1. Start uniform (R6: clans are dealt at random).
    """

    def __init__(
        self, num_players: int, viewer: int | None, own_clan: str | None, *,
        beta: float = DEFAULT_BETA, model: ReaderModel = MODEL
    ) -> None:
        if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise ValueError(f"{num_players} players: a game has 2 to 4 (R6)")
        if viewer is None or own_clan is None:
            if viewer is not None or own_clan is not None:
                raise ValueError("an onlooker has neither a seat nor a clan")
        elif not 0 <= viewer < num_players:
            raise ValueError(f"viewer {viewer} is not one of the {num_players} players")
        elif own_clan not in CLAN_INDEX:
            raise ValueError(f"unknown clan {own_clan!r}")
        self.num_players = num_players
        self.viewer = viewer
        self.own_clan = own_clan
        self.beta = beta
        self.model = model
        self._log_w = _log_weights(model)
        self._log_max_odds = math.log(model.max_odds)
        self.hypotheses: list[Assignment] = (
            assignments(num_players, viewer, own_clan) if viewer is not None and own_clan
            else list(permutations(CLANS, num_players)))
        self.probs: list[float] = [1.0 / len(self.hypotheses)] * len(self.hypotheses)
        # Per player, per clan: the summed log ratio of their moves (see move_evidence),
        # and the same for a hiding player (hide_evidence) and a sharp one (Evidence).
        self._evidence = [[0.0] * NUM_CLANS for _ in range(num_players)]
        self._hidden = [[0.0] * NUM_CLANS for _ in range(num_players)]
        self._sharp = [[0.0] * NUM_CLANS for _ in range(num_players)]
        self._inner = [[0.0] * NUM_CLANS for _ in range(num_players)]

    def __repr__(self) -> str:
        best = max(range(len(self.probs)), key=self.probs.__getitem__)
        return f"<Belief of player {self.viewer}: {self.hypotheses[best]} {self.probs[best]:.2f}>"

    def copy(self) -> Belief:
        """An independent copy."""
        new = Belief(self.num_players, self.viewer, self.own_clan, beta=self.beta,
                     model=self.model)
        new.probs = self.probs[:]
        new._evidence = [row[:] for row in self._evidence]
        new._hidden = [row[:] for row in self._hidden]
        new._sharp = [row[:] for row in self._sharp]
        new._inner = [row[:] for row in self._inner]
        return new

    def seen(self, player: int) -> list[float]:
        """The summed :func:`move_evidence` of ``player``'s moves taken so far (what an
        open reader sees of them). A copy."""
        return self._evidence[player][:]

    def read(self, state_before: GameState, move: Move) -> Evidence:
        """The :data:`Evidence` of ``move``, made by the player to move in
        ``state_before``, as this belief's model reads it given that player's moves so far
        (for :meth:`take` here and in every other reader of the same model: an onlooker
        sees every move)."""
        mover = state_before.current_player
        return _read(state_before, move, self.model, self.beta, self._evidence[mover],
                     self._inner[mover])

    def update(self, state_before: GameState, move: Move) -> None:
        """Take in that the player to move in ``state_before`` made ``move``. The viewer's
        own moves say nothing new (the viewer knows their clan)."""
        mover = state_before.current_player
        if mover == self.viewer:
            return
        self.take(mover, self.read(state_before, move))

    def take(self, mover: int, evidence: Evidence) -> None:
        """Take in one move of ``mover`` whose :func:`read_move` is ``evidence`` (one
        evaluation of a move serves every reader of it)."""
        if mover == self.viewer:
            return
        ratios, hidden, sharp, inside = evidence
        row, hid, keen = self._evidence[mover], self._hidden[mover], self._sharp[mover]
        inner = self._inner[mover]
        # P(this move | clan c, the player's earlier moves), up to a factor common to all
        # hypotheses: the player's evidence after the move over their evidence before it.
        before = self._log_likelihoods(row, hid, keen)
        for c in range(NUM_CLANS):
            row[c] += ratios[c]
            hid[c] += hidden[c]
            keen[c] += sharp[c]
            inner[c] += inside[c]
        after = self._log_likelihoods(row, hid, keen)
        factor = [math.exp(a - b) for a, b in zip(after, before, strict=True)]
        probs = [
            p * factor[CLAN_INDEX[h[mover]]]
            for p, h in zip(self.probs, self.hypotheses, strict=True)
        ]
        total = sum(probs)
        self.probs = [max(p / total, _TINY) if p > 0.0 else 0.0 for p in probs]

    def _log_likelihoods(self, row: list[float], hid: list[float],
                         keen: list[float]) -> list[float]:
        """For each clan, log P(a player's moves | that clan), up to a common constant, from
        their summed log ratios as an open player ``row``, a hiding one ``hid`` and a sharp
        one ``keen``, over the kinds of player (:class:`ReaderModel`): none more than
        :data:`MAX_ODDS` below the likeliest clan the player may hold (any but the
        viewer's)."""
        logs = _kind_logs(row, hid, keen, self.model, self._log_w)
        own = CLAN_INDEX[self.own_clan] if self.own_clan is not None else -1
        floor = max(v for c, v in enumerate(logs) if c != own) - self._log_max_odds
        return [max(v, floor) for v in logs]

    def reveal(self, clans: Sequence[str]) -> None:
        """The clans are known (R20): all probability on ``clans``. Raises ValueError for an
        assignment the viewer knows to be impossible."""
        clans = tuple(clans)
        if clans not in self.hypotheses:
            raise ValueError(
                f"clans {list(clans)} cannot be: player {self.viewer} is {self.own_clan} "
                "and every player has a different clan" if self.viewer is not None else
                f"clans {list(clans)} cannot be: every player has a different clan"
            )
        self.probs = [1.0 if h == clans else 0.0 for h in self.hypotheses]

    def marginals(self) -> dict[int, dict[str, float]]:
        """For each other player, the probability of each clan (CLANS order; the viewer's
        own clan has probability 0)."""
        out: dict[int, dict[str, float]] = {}
        for player in range(self.num_players):
            if player == self.viewer:
                continue
            clans = dict.fromkeys(CLANS, 0.0)
            for p, h in zip(self.probs, self.hypotheses, strict=True):
                clans[h[player]] += p
            out[player] = clans
        return out

    def sample(self, rng: random.Random) -> Assignment:
        """One assignment drawn with its probability (one draw from ``rng``)."""
        return rng.choices(self.hypotheses, weights=self.probs)[0]

    def most_likely(self) -> Assignment:
        """The assignment with the highest probability (the first of equals)."""
        return self.hypotheses[max(range(len(self.probs)), key=self.probs.__getitem__)]


class _PublicReplay:
    """The public game of one player's observations, kept up to date by replaying only the
    moves not seen yet; an observation that does not continue what it saw (an undo, a new
    game, another viewer) starts it again from the deal. Each move is handed to
    :meth:`_take` before it is played; :meth:`_restart` starts again what a subclass keeps."""

    def __init__(self, board: Board, chart: EpochChart, *, beta: float = DEFAULT_BETA) -> None:
        self.board = board
        self.chart = chart
        self.beta = beta
        self._key: tuple | None = None
        self._seen: tuple[Move, ...] = ()
        self._state: GameState | None = None

    def _catch_up(self, obs: Observation) -> GameState:
        if obs.viewer is None or obs.own_clan is None:
            raise ValueError("a belief needs a player's observation, not the public view")
        key = (obs.viewer, obs.own_clan, obs.players, obs.initial_huts)
        moves = obs.moves
        seen = self._seen
        if key != self._key or len(moves) < len(seen) or moves[: len(seen)] != seen:
            # The clans given to this game do not matter: moves, villages and clan points
            # do not depend on them (see base.py). The viewer's own assignment is the first.
            clans = assignments(len(obs.players), obs.viewer, obs.own_clan)[0]
            self._state = GameState(self.board, self.chart, obs.players, clans,
                                    obs.initial_huts)
            self._key, self._seen = key, ()
            self._restart(obs)
        state = self._state
        assert state is not None
        for move in moves[len(self._seen) :]:
            self._take(obs, state, move)
            state.push(move, undo=False)
        self._seen = moves
        return state

    def _restart(self, obs: Observation) -> None:
        raise NotImplementedError

    def _take(self, obs: Observation, state: GameState, move: Move) -> None:
        raise NotImplementedError


class BeliefTracker(_PublicReplay):
    """A :class:`Belief` kept up to date from a player's observations, replaying only the
    public moves it has not seen yet. An observation that does not continue what it saw
    (an undo, a new game, another viewer) starts it again from the deal. ``model``: the
    reader's (:data:`MODEL` unless given)."""

    def __init__(self, board: Board, chart: EpochChart, *, beta: float = DEFAULT_BETA,
                 model: ReaderModel | None = None) -> None:
        super().__init__(board, chart, beta=beta)
        self.model = model if model is not None else MODEL
        self._belief: Belief | None = None

    def update(self, obs: Observation) -> Belief:
        """The belief after the moves of ``obs`` (a copy: yours to change). Once the game
        is over the clans are revealed (R20) and the belief is certain."""
        self._catch_up(obs)
        assert self._belief is not None
        out = self._belief.copy()
        if obs.revealed_clans is not None:
            out.reveal(obs.revealed_clans)
        return out

    def _restart(self, obs: Observation) -> None:
        assert obs.viewer is not None and obs.own_clan is not None
        self._belief = Belief(len(obs.players), obs.viewer, obs.own_clan, beta=self.beta,
                              model=self.model)

    def _take(self, obs: Observation, state: GameState, move: Move) -> None:
        assert self._belief is not None
        self._belief.update(state, move)


class OwnReading(_PublicReplay):
    """How the table reads one player (the viewer), as a reader with ``model`` would: the
    summed :func:`move_evidence` (``row``) and :func:`hide_evidence` (``hid``) of the
    viewer's own moves, kept up to date from its observations (public moves only, R22),
    replaying only the moves it has not seen. :func:`exposure` of them gives what that
    reader would believe of the viewer's clan; the hiding bot weighs it."""

    def __init__(self, board: Board, chart: EpochChart, *, beta: float = DEFAULT_BETA,
                 model: ReaderModel = OPEN_MODEL) -> None:
        super().__init__(board, chart, beta=beta)
        self.model = model
        self.row: list[float] = [0.0] * NUM_CLANS
        self.hid: list[float] = [0.0] * NUM_CLANS
        self.keen: list[float] = [0.0] * NUM_CLANS
        self.inner: list[float] = [0.0] * NUM_CLANS

    def update(self, obs: Observation) -> GameState:
        """Take in the moves of ``obs`` not seen yet; the public game after them (yours to
        read, not to change)."""
        return self._catch_up(obs)

    def _restart(self, obs: Observation) -> None:
        self.row = [0.0] * NUM_CLANS
        self.hid = [0.0] * NUM_CLANS
        self.keen = [0.0] * NUM_CLANS
        self.inner = [0.0] * NUM_CLANS

    def _take(self, obs: Observation, state: GameState, move: Move) -> None:
        if state.current_player != obs.viewer:
            return
        ratios, hidden, sharp, inside = _read(state, move, self.model, self.beta, self.row,
                                              self.inner)
        self.row = [a + b for a, b in zip(self.row, ratios, strict=True)]
        self.hid = [a + b for a, b in zip(self.hid, hidden, strict=True)]
        self.keen = [a + b for a, b in zip(self.keen, sharp, strict=True)]
        self.inner = [a + b for a, b in zip(self.inner, inside, strict=True)]

    def exposures(self, state: GameState, clan: str) -> dict[Move, float]:
        """For each legal move of ``state`` (the public game :meth:`update` gave, the
        viewer to move), the probability the reader would give ``clan`` after it."""
        out = {}
        evidence = moves_read(state, self.row, self.model, self.inner)
        for move, (ratios, hidden, sharp, _) in evidence.items():
            row = [a + b for a, b in zip(self.row, ratios, strict=True)]
            hid = [a + b for a, b in zip(self.hid, hidden, strict=True)]
            keen = [a + b for a, b in zip(self.keen, sharp, strict=True)]
            out[move] = exposure(row, clan, hid, self.model, keen)
        return out
