"""A fast evaluation of moves for a player of each clan: what the bots know about Clans.

:func:`clan_values` says, for every legal move, how good it is for the player who makes it
if that player's clan were red, blue, green, yellow or black (CLANS order). The bots use it
to play (the easy bot samples from it, search bots can order moves with it) and to read the
other players' moves (:mod:`.belief`: a move that is much better for green than for red hints
that its player is green). It looks only at public things: huts, villages, chips, points.

The value of a move for clan ``c`` is, in points:

* **now**: what the move scores (R10-R18: villages founded in the best order for ``c``,
  strife, hostile terrain, unscored villages after the last chip), as ``c``'s points minus
  the mean of the four other clans' points. Whose the other clans are is unknown, and a
  point for an unowned clan hurts nobody, so the mean of the others stands for "a typical
  opponent";
* **the mover's chips** (R12.1, R20): +1 for each scored village the move founds, the same
  for every clan (the chip is the mover's, whatever their clan);
* **later** (:data:`POSITION_WEIGHT` times): the change in every territory's *potential*,
  again ``c``'s minus the mean of the others. A territory's potential for a clan present in
  it is the value it would score if founded soon (its huts after strife, R12.2, on its
  terrain over the next few chips, R14-R17) times a chance of being founded soon that
  halves with every live neighbour (:data:`SOON`). So gathering huts of ``c`` into big
  groups on favourable terrain that are nearly cut off is good for ``c``; leaving a single
  hut of ``c`` where four other clans meet is not (strife), nor is a group that will be
  founded on hostile terrain.

Cost: the position is read once per call (about 0.1 ms); then a move that founds no village
is evaluated from the few territories it touches, without playing it. A move that founds
villages is played (``push``) and taken back (``pop``) once per village order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .. import compiled
from ..compiled.state import compiled_clan_values
from ..rules.constants import CLAN_INDEX, CLANS, NUM_CLANS
from ..rules.epochs import FAVOURABLE, HOSTILE
from ..rules.moves import Move
from ..rules.state import GameState

__all__ = [
    "LOOKAHEAD_CHIPS",
    "POSITION_WEIGHT",
    "SOON",
    "STRIFE_RISK",
    "Values",
    "best_order",
    "clan_values",
    "order_values",
    "python_clan_values",
    "softmax",
]

#: How good a move is for a player of each clan: five numbers, in CLANS order.
Values = tuple[float, ...]

#: Weight of the change in potential against points scored now.
POSITION_WEIGHT = 1.0

#: A territory with ``d`` live neighbours counts ``SOON ** d`` of its value: with one live
#: neighbour, any move of that neighbour (or into it) founds it; each more halves the chance.
SOON = 0.5
_RISE = 1.0 / SOON - 1.0  # one live neighbour fewer: the weight grows by this fraction

#: A territory's terrain is judged over this many coming chips (R14-R17).
LOOKAHEAD_CHIPS = 2

#: A clan's single hut in a territory where the four other clans already are counts for
#: this much less: a fifth clan arriving means strife (R12.2).
STRIFE_RISK = 0.5


def softmax(values: Sequence[float], beta: float) -> list[float]:
    """Probabilities proportional to ``exp(beta * v)`` (numerically stable; empty for
    empty ``values``; uniform when ``beta`` is 0)."""
    if not values:
        return []
    scaled = [beta * v for v in values]
    top = max(scaled)
    exps = [math.exp(s - top) for s in scaled]
    total = sum(exps)
    return [e / total for e in exps]


def clan_values(state: GameState, moves: Sequence[Move] | None = None) -> list[Values]:
    """For each of ``moves`` (default: every legal move), how good it is for the player to
    move if that player's clan were each clan (CLANS order); see the module docstring.

    A move that founds two or more villages is valued for each clan with the order best for
    that clan (R11), whatever order the move carries.
    """
    if moves is None:
        moves = state.legal_moves()
    if not moves:
        return []
    lib = compiled.core()
    if lib is not None:  # the same floats (tests/test_compiled_rules.py), faster
        return compiled_clan_values(lib, state, moves)
    return python_clan_values(state, moves)


def python_clan_values(state: GameState, moves: Sequence[Move]) -> list[Values]:
    """:func:`clan_values` in Python (the reference the compiled core answers to)."""
    view = _View(state)
    return [_best_per_clan(view.evaluate(m.src, m.dst)) for m in moves]


def order_values(state: GameState, move: Move) -> list[tuple[tuple[int, ...] | None, Values]]:
    """Every village order of ``move`` (``state.village_orders``, R11) with its value for
    each clan: one entry ``(None, values)`` when the move founds fewer than two villages."""
    return _View(state).evaluate(move.src, move.dst)


def best_order(state: GameState, move: Move, clan: str) -> tuple[int, ...] | None:
    """The founding order of ``move`` best for a player of ``clan`` (R11: which village
    takes which chip, so which epoch's terrain and bonus, R15/R16), or None when the move
    founds fewer than two villages. Ties go to the first order of ``state.village_orders``."""
    c = CLAN_INDEX[clan]
    options = order_values(state, move)
    order, _ = max(options, key=lambda option: option[1][c])
    return order


# --------------------------------------------------------------------------- internals


def _best_per_clan(options: list[tuple[tuple[int, ...] | None, Values]]) -> Values:
    if len(options) == 1:
        return options[0][1]
    vals = [v for _, v in options]
    return tuple(max(v[c] for v in vals) for c in range(NUM_CLANS))


def _relative(d0: float, d1: float, d2: float, d3: float, d4: float, common: float) -> Values:
    """Each clan's share minus the mean of the four others', plus ``common``."""
    s = d0 + d1 + d2 + d3 + d4
    return (
        (5 * d0 - s) * 0.25 + common,
        (5 * d1 - s) * 0.25 + common,
        (5 * d2 - s) * 0.25 + common,
        (5 * d3 - s) * 0.25 + common,
        (5 * d4 - s) * 0.25 + common,
    )


def _terrain_outlook(state: GameState) -> list[tuple[float, float]]:
    """Per terrain, ``(mul, add)`` so that a group of ``n`` huts founded in one of the next
    :data:`LOOKAHEAD_CHIPS` chips scores ``mul * n + add`` on average (R14-R17)."""
    chart = state.chart
    chip_epoch = chart.chip_epoch
    last = len(chip_epoch) - 1
    first = min(state.chips_taken + 1, last)
    chips = range(first, min(first + LOOKAHEAD_CHIPS, last + 1))
    out = []
    for terrain in range(len(chart.effect[1])):
        mul = add = 0.0
        for chip in chips:
            epoch = chip_epoch[chip]
            effect = chart.effect[epoch][terrain]
            if effect != HOSTILE:
                mul += 1.0
                if effect == FAVOURABLE:
                    add += chart.bonus[epoch]
        out.append((mul / len(chips), add / len(chips)))
    return out


class _View:
    """One position read once: huts, live territories, live neighbours, potentials."""

    __slots__ = (
        "_all_gone",
        "alive",
        "degree",
        "huts",
        "nbrs",
        "outlook",
        "pot",
        "state",
        "terrain",
    )

    def __init__(self, state: GameState) -> None:
        self.state = state
        board = state.board
        n = len(board.territories)
        live = state.live_mask
        self.alive = alive = [live >> t & 1 for t in range(n)]
        self.nbrs = nbrs = board.neighbor_ids
        self.degree = [sum(alive[u] for u in nbrs[t]) if alive[t] else 0 for t in range(n)]
        self.huts = [state.hut_counts(t) if alive[t] else (0, 0, 0, 0, 0) for t in range(n)]
        self.terrain = board.terrain_index
        self.outlook = _terrain_outlook(state)
        zero = (0.0, 0.0, 0.0, 0.0, 0.0)
        self.pot = [
            self.potential(self.huts[t], self.degree[t], self.terrain[t]) if alive[t] else zero
            for t in range(n)
        ]
        self._all_gone: list[float] | None = None

    def all_gone(self) -> list[float]:
        """Per clan, the change in potential when every territory's potential goes (the
        game ends, R18/R19)."""
        if self._all_gone is None:
            gone = [0.0] * NUM_CLANS
            for p in self.pot:  # added in order, not sum(): the same floats on any Python
                for c in range(NUM_CLANS):
                    gone[c] += p[c]
            self._all_gone = [-x for x in gone]
        return self._all_gone

    def potential(self, h: tuple[int, ...], degree: int, terrain: int) -> Values:
        """Per clan: what a territory holding ``h`` with ``degree`` live neighbours is worth
        to each clan present, weighted by how soon it may be founded."""
        h0, h1, h2, h3, h4 = h
        q: tuple[float, ...]
        n = h0 + h1 + h2 + h3 + h4
        present = (h0 > 0) + (h1 > 0) + (h2 > 0) + (h3 > 0) + (h4 > 0)
        if present == 5:  # R12.2: strife takes the single huts
            n -= (h0 == 1) + (h1 == 1) + (h2 == 1) + (h3 == 1) + (h4 == 1)
            q = (h0 > 1, h1 > 1, h2 > 1, h3 > 1, h4 > 1)
        elif present == 4:  # a fifth clan arriving would take the single huts
            q = tuple((1.0 - STRIFE_RISK) if x == 1 else float(x > 0) for x in h)
        else:
            q = (h0 > 0, h1 > 0, h2 > 0, h3 > 0, h4 > 0)
        mul, add = self.outlook[terrain]
        k = SOON**degree * (mul * n + add)
        return (k * q[0], k * q[1], k * q[2], k * q[3], k * q[4])

    def evaluate(self, src: int, dst: int) -> list[tuple[tuple[int, ...] | None, Values]]:
        """The move ``src -> dst`` for each of its village orders (see :func:`order_values`)."""
        alive, degree = self.alive, self.degree
        if not any(alive[u] and degree[u] == 1 for u in self.nbrs[src]):
            return [(None, self._quiet(src, dst))]
        return self._founding(src, dst)

    def _quiet(self, src: int, dst: int) -> Values:
        """A move that founds no village: only potentials change (R8, R10)."""
        alive, degree, pot = self.alive, self.degree, self.pot
        ps, pd = pot[src], pot[dst]
        hs, hd = self.huts[src], self.huts[dst]
        merged = (hs[0] + hd[0], hs[1] + hd[1], hs[2] + hd[2], hs[3] + hd[3], hs[4] + hd[4])
        pn = self.potential(merged, degree[dst] - 1, self.terrain[dst])
        d0 = pn[0] - ps[0] - pd[0]
        d1 = pn[1] - ps[1] - pd[1]
        d2 = pn[2] - ps[2] - pd[2]
        d3 = pn[3] - ps[3] - pd[3]
        d4 = pn[4] - ps[4] - pd[4]
        n0 = n1 = n2 = n3 = n4 = 0.0
        for u in self.nbrs[src]:
            if alive[u] and u != dst:
                # One live neighbour fewer: the chance of being founded soon rises.
                pu = pot[u]
                n0 += pu[0]
                n1 += pu[1]
                n2 += pu[2]
                n3 += pu[3]
                n4 += pu[4]
        w, r = POSITION_WEIGHT, _RISE
        return _relative(
            w * (d0 + r * n0),
            w * (d1 + r * n1),
            w * (d2 + r * n2),
            w * (d3 + r * n3),
            w * (d4 + r * n4),
            0.0,
        )

    def _founding(self, src: int, dst: int) -> list[tuple[tuple[int, ...] | None, Values]]:
        """A move that founds villages: played and taken back once per order (R11-R18)."""
        state, alive, degree, pot = self.state, self.alive, self.degree, self.pot
        move = Move(src, dst)
        points_before = state.clan_points
        chips_before = sum(state.chips)
        # Potentials that change whatever the order: src and dst go, src's live neighbours
        # lose a live neighbour (the founded ones lose their potential: they score now).
        pos = [-pot[src][c] - pot[dst][c] for c in range(NUM_CLANS)]
        if degree[dst] > 1:
            hs, hd = self.huts[src], self.huts[dst]
            merged = tuple(a + b for a, b in zip(hs, hd, strict=True))
            pn = self.potential(merged, degree[dst] - 1, self.terrain[dst])
            for c in range(NUM_CLANS):
                pos[c] += pn[c]
        for u in self.nbrs[src]:
            if alive[u] and u != dst:
                r = -1.0 if degree[u] == 1 else _RISE
                for c in range(NUM_CLANS):
                    pos[c] += r * pot[u][c]
        out = []
        for order in state.village_orders(move):
            state.push(move.with_order(order))
            try:
                points = state.clan_points
                chips = sum(state.chips) - chips_before
                # After the last village nothing is "later": every potential is gone (R18).
                later = self.all_gone() if state.is_over else pos
            finally:
                state.pop()
            w = POSITION_WEIGHT
            d = [points[CLANS[c]] - points_before[CLANS[c]] + w * later[c] for c in range(5)]
            out.append((order, _relative(*d, float(chips))))
        return out
