"""The compiled core's game: a :class:`~clans_pi.rules.state.GameState`'s tables in C, with
the moves, playouts and random numbers of the search's hot path.

Not a second rules engine for the table: games are played, checked and recorded by
``GameState`` (the specification). This is what the search runs on, and what the
differential tests hold against ``GameState`` move by move: :func:`tables` reads both in
one layout.
"""

from __future__ import annotations

import ctypes
import random
from ctypes import c_double, c_int, c_uint32
from functools import lru_cache

from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.moves import Move
from ..rules.state import END_NO_MOVES, END_TWELFTH_VILLAGE, GameState
from ..rules.village import unpack_huts
from .library import Core

__all__ = ["MAX_NEIGHBOURS", "CoreBoard", "CoreRandom", "CoreState", "compiled_clan_values",
           "tables"]

MAX_NEIGHBOURS = 8  # MAXN in core.c
_ENDS = {None: 0, END_TWELFTH_VILLAGE: 1, END_NO_MOVES: 2}
_END_NAMES = {v: k for k, v in _ENDS.items()}


_INT_ARRAYS: dict[int, type] = {}  # ctypes array types by length: making one is costly


def _ints(values: list[int] | tuple[int, ...]) -> ctypes.Array[c_int]:
    n = max(1, len(values))
    kind = _INT_ARRAYS.get(n)
    if kind is None:
        kind = _INT_ARRAYS[n] = c_int * n
    return kind(*values)


class CoreBoard:
    """A board and an epoch chart as the core reads them."""

    __slots__ = ("buf", "core", "legal_out", "nt", "tables_out")

    def __init__(self, core: Core, board: Board, chart: EpochChart) -> None:
        self.core = core
        self.nt = nt = len(board.territories)
        # Room for what the core writes out (CoreState.tables, legal_actions), made once:
        # a ctypes array type made at each call costs more than the call.
        self.tables_out = (c_int * (4 * nt + 5 + 4 + 5 + 1 + 8 * 16))()
        self.legal_out = (c_int * (nt * MAX_NEIGHBOURS))()
        self.buf = ctypes.create_string_buffer(core.board_size)
        nbr = [0] * (nt * MAX_NEIGHBOURS)
        for t, ns in enumerate(board.neighbor_ids):
            nbr[t * MAX_NEIGHBOURS : t * MAX_NEIGHBOURS + len(ns)] = ns
        epochs = len(chart.epochs)
        effect = [0] * 4 + [x for row in chart.effect[1:] for x in row]
        if core.cc_board_set(self.buf, nt, _ints(board.degrees), _ints(nbr),
                             _ints(board.terrain_index), chart.total_chips,
                             _ints(chart.chip_epoch), epochs, _ints(chart.bonus),
                             _ints(effect)):
            raise ValueError(f"the compiled core cannot hold board {board.id!r} and chart "
                             f"{chart.id!r} (too many territories, neighbours or chips)")


@lru_cache(maxsize=8)
def core_board(core: Core, board: Board, chart: EpochChart) -> CoreBoard:
    """The core's copy of ``board`` and ``chart`` (made once for each)."""
    return CoreBoard(core, board, chart)


class CoreRandom:
    """CPython's Mersenne Twister in the core: :meth:`take` copies a ``random.Random``'s
    state in, :meth:`give` back, so that the core draws exactly the numbers it would."""

    __slots__ = ("buf", "core", "gauss")

    def __init__(self, core: Core, rng: random.Random | None = None) -> None:
        self.core = core
        self.buf = ctypes.create_string_buffer(core.rng_size)
        self.gauss: float | None = None
        if rng is not None:
            self.take(rng)

    def take(self, rng: random.Random) -> None:
        _, internal, self.gauss = rng.getstate()
        words = (c_uint32 * 624)(*internal[:624])
        self.core.cc_rng_set(self.buf, words, internal[624])

    def give(self, rng: random.Random) -> None:
        words = (c_uint32 * 624)()
        index = self.core.cc_rng_get(self.buf, words)
        rng.setstate((3, (*words, index), self.gauss))

    def random(self) -> float:
        return self.core.cc_rng_random(self.buf)


class CoreState:
    """A game's tables in the core: made from a ``GameState`` (:meth:`of`), moved on by
    actions (``src * 64 + dst``) as ``GameState.push_action`` does."""

    __slots__ = ("board", "buf", "core")

    def __init__(self, core: Core, board: CoreBoard) -> None:
        self.core = core
        self.board = board
        self.buf = ctypes.create_string_buffer(core.state_size)

    @classmethod
    def of(cls, core: Core, state: GameState) -> CoreState:
        """The core's copy of ``state`` (its villages so far are not copied)."""
        new = cls(core, core_board(core, state.board, state.chart))
        new.set(state)
        return new

    def set(self, state: GameState) -> None:
        """Become a copy of ``state``'s tables."""
        if not 1 <= state.num_players <= 4:  # MAXP in core.c (R6: 2 to 4)
            raise ValueError(f"the compiled core plays 1 to 4 players, not {state.num_players}")
        core = self.core
        core.cc_state_set(
            self.buf, self.board.buf, _ints(state._pack), _ints(state._count),
            _ints(list(state._alive)), _ints(state._degree), state._nalive, state._taken,
            state.ply, state.num_players, _ENDS[state._end], _ints(state._chips),
            _ints(state._points))

    def copy(self) -> CoreState:
        new = CoreState(self.core, self.board)
        ctypes.memmove(new.buf, self.buf, self.core.state_size)
        return new

    def legal_actions(self) -> list[int]:
        out = self.board.legal_out
        n = self.core.cc_legal_actions(self.buf, self.board.buf, out)
        return out[:n]

    def push_action(self, action: int, order: tuple[int, ...] | None = None) -> None:
        if order is None:
            self.core.cc_push(self.buf, self.board.buf, action, None, 0)
        else:
            self.core.cc_push(self.buf, self.board.buf, action, _ints(order), len(order))

    def random_legal_action(self, rng: CoreRandom) -> int:
        return self.core.cc_random_legal_action(self.buf, self.board.buf, rng.buf)

    def playout(self, rng: CoreRandom) -> None:
        """``GameState.playout`` with the core's random numbers."""
        self.core.cc_playout(self.buf, self.board.buf, rng.buf)

    def tables(self) -> dict[str, object]:
        """Everything the core keeps, in :func:`tables`' layout."""
        nt = self.board.nt
        out = self.board.tables_out
        n = self.core.cc_state_get(self.buf, self.board.buf, out)
        flat = out[:n]
        k = 4 * nt
        nplayers, nvillages = flat[k + 4], flat[k + 14]
        villages = []
        for v in range(nvillages):
            at = k + 15 + 8 * v
            t, chip, epoch, founder, huts, value, effect, lost = flat[at:at + 8]
            villages.append((t, chip, epoch, founder, unpack_huts(huts), value, effect,
                             tuple(c for c in range(5) if lost >> c & 1)))
        return {
            "pack": flat[0:nt], "count": flat[nt:2 * nt], "alive": flat[2 * nt:3 * nt],
            "degree": flat[3 * nt:4 * nt], "nalive": flat[k], "taken": flat[k + 1],
            "ply": flat[k + 2], "end": _END_NAMES[flat[k + 3]],
            "chips": flat[k + 5:k + 5 + nplayers], "points": flat[k + 9:k + 14],
            "villages": villages,
        }


def tables(state: GameState, villages_from: int = 0) -> dict[str, object]:
    """A ``GameState``'s tables in :meth:`CoreState.tables`' layout (its villages from the
    ``villages_from``-th on: a core state made by :meth:`CoreState.of` starts with none)."""
    from ..rules.constants import CLAN_INDEX

    return {
        "pack": list(state._pack), "count": list(state._count), "alive": list(state._alive),
        "degree": list(state._degree), "nalive": state._nalive, "taken": state._taken,
        "ply": state.ply, "end": state._end, "chips": list(state._chips),
        "points": list(state._points),
        "villages": [(v.territory, v.chip, v.epoch, v.founder, v.huts, v.value, v.effect,
                      tuple(CLAN_INDEX[c] for c in v.lost))
                     for v in state.villages[villages_from:]],
    }


def compiled_clan_values(core: Core, state: GameState,
                         moves: list[Move] | tuple[Move, ...]) -> list[tuple[float, ...]]:
    """``clans_pi.bots.heuristic.clan_values`` of ``moves`` worked out by the core: the
    same floats, bit for bit."""
    cstate = CoreState.of(core, state)
    n = cstate.board.nt
    for m in moves:
        if not (0 <= m.src < n and 0 <= m.dst < n):
            raise ValueError(f"move {m} is not between territories of the board")
    out = (c_double * (5 * len(moves)))()
    if core.cc_clan_values(cstate.buf, cstate.board.buf,
                           (c_int * len(moves))(*[m.src << 6 | m.dst for m in moves]),
                           len(moves), out):
        raise MemoryError("the compiled core ran out of memory")
    flat = out[:]
    return [tuple(flat[i:i + 5]) for i in range(0, len(flat), 5)]
