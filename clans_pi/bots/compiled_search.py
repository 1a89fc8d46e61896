"""The search of :mod:`.ismcts` run by the compiled core (:mod:`clans_pi.compiled`): the same
iterations with the same random numbers, so at equal iterations and seeds the same visits,
rewards and move.

Its tree lives in the core (:class:`CoreNode` reads it, and follows it down to keep it for
the next move, as :mod:`.tree` does with the Python one). The heuristic that
orders a node's untried children (``Settings.ordered``) is in the core too: the same
floating-point operations in the same order as :func:`clans_pi.bots.heuristic.clan_values`.
"""

from __future__ import annotations

import ctypes
import random
import threading
import time
from collections.abc import Sequence
from ctypes import c_double, c_int, c_uint32, c_uint64
from typing import Any

from ..compiled.library import Core
from ..compiled.state import CoreState
from ..rules.moves import Move
from ..rules.state import GameState
from .base import Cancelled
from .ismcts import Result, Sampler, Settings, result_of, tried_index

__all__ = ["CHUNK", "CoreNode", "search"]

#: Iterations between two looks at the cancel event (a few milliseconds).
CHUNK = 64


def _order(packed: int) -> tuple[int, ...] | None:
    """A village order as the core packs it (``core.c``: pack_order), or None."""
    n = packed & 15
    return tuple(packed >> (4 + 6 * i) & 63 for i in range(n)) if n else None


class CoreNode:
    """A node of a tree in the core, read as :class:`.ismcts._Node` is: ``player``,
    ``total``, ``full``, ``actions`` (the tried ones first), ``n`` and ``w`` (the tried
    ones'), ``orders`` and ``children``, as they were when it was read.

    The root owns its tree and frees it when it goes, or when :meth:`child` makes a node
    below it the root of what is kept. Its ``children`` (and theirs) are views into the
    same tree: they keep no tree alive, and their own ``children`` cannot be read once
    their tree has been freed (a RuntimeError, never a read of freed memory)."""

    __slots__ = ("_core", "_owned", "_ptr", "_tree", "actions", "address", "full", "n",
                 "orders", "player", "total", "w")

    def __init__(self, core: Core, ptr: int, tree: list[bool] | None = None) -> None:
        self._core = core
        self._ptr: int | None = ptr
        self.address = ptr  # the node in the core: the same node, the same address
        self._owned = tree is None
        self._tree = [True] if tree is None else tree  # shared: False once freed
        info = (c_int * 6)()
        core.cc_node_info(ptr, info)
        self.player, self.total, tried, count, full, _ = info
        self.full = bool(full)
        codes, ords = (c_int * max(1, count))(), (c_uint64 * max(1, count))()
        n, w = (c_int * max(1, tried))(), (c_double * max(1, tried))()
        core.cc_node_children(ptr, count, codes, ords, n, w)
        self.actions = codes[:count]
        self.n = n[:tried]
        self.w = w[:tried]
        self.orders = {code: _order(o) for code, o in zip(self.actions, ords, strict=False)
                       if o}

    @property
    def children(self) -> list[CoreNode | None]:
        """For each tried child, the node it leads to (a view), or None."""
        if not self._tree[0] or self._ptr is None:
            raise RuntimeError("a node of a search tree freed since")
        out: list[CoreNode | None] = []
        for i in range(len(self.n)):
            ptr = self._core.cc_node_child(self._ptr, i)
            out.append(CoreNode(self._core, ptr, self._tree) if ptr else None)
        return out

    def child(self, move: Move) -> CoreNode | None:
        """The node ``move`` leads to, if the search made it one, as the root of its own
        tree: the rest of this tree is freed (this root can no longer be used). None too
        when this tree was freed already (moved on from before, or searched on)."""
        if not self._owned:
            raise RuntimeError("only a search tree's root moves on")
        if self._ptr is None:
            return None
        i = tried_index(self.actions, len(self.n), self.orders, move)
        found = None if i is None else self._core.cc_node_child(self._ptr, i)
        self._free(keep=found)
        return CoreNode(self._core, found) if found else None

    def release(self) -> int:
        """Hand the tree to the core's search (which gives it back as its root)."""
        if not self._owned or self._ptr is None:
            raise RuntimeError("only a search tree's root, once, is searched on")
        ptr, self._ptr = self._ptr, None
        self._tree[0] = False
        return ptr

    def _free(self, keep: int | None = None) -> None:
        if self._owned and self._ptr is not None:
            self._tree[0] = False
            ptr, self._ptr = self._ptr, None
            self._core.cc_tree_free(ptr, keep)

    def __del__(self) -> None:
        self._free()


def search(
    core: Core,
    state: GameState,
    sample: Sampler,
    rng: random.Random,
    settings: Settings,
    *,
    iterations: int | None = None,
    deadline: float | None = None,
    cancel: threading.Event | Any = None,
    clan_weights: Sequence[Sequence[float]] | None = None,
    root: CoreNode | None = None,
) -> Result:
    """:func:`.ismcts.search` in the core (see there), for a ``sample`` made by
    :class:`.ismcts.Sampler`. ``cancel`` is looked at every :data:`CHUNK`
    iterations; ``rng`` is left as the Python search would leave it."""
    assert iterations is not None or deadline is not None, "no budget"
    assert not state.is_over, "the game is over"
    assert not settings.ordered or clan_weights is not None, "ordering needs clan weights"
    if root is not None and root.player != state.current_player:
        raise ValueError("a kept root of another player's turn")
    cstate = CoreState.of(core, state)
    hyps = sample.hypotheses
    weights = None
    if clan_weights is not None:
        rows = [float(q) for row in clan_weights for q in row]
        weights = (c_double * len(rows))(*rows)
    flat = [c for h in hyps for c in h]
    _, internal, gauss = rng.getstate()
    buf = ctypes.create_string_buffer(core.search_size)  # the core's Search
    started = False
    node_ptr = None
    done = 0
    try:
        kept = root.release() if root is not None else None
        started = True  # from here the core's search owns the kept tree
        rc = core.cc_search_start(
            buf, cstate.board.buf, cstate.buf, settings.exploration, settings.margin_weight,
            settings.margin_scale, settings.widening, settings.root_breadth,
            int(settings.ordered), settings.order_after, settings.max_nodes, len(hyps),
            (c_int * len(flat))(*flat), int(sample.weighted),
            (c_double * max(1, len(sample.cum)))(*sample.cum), sample.total, weights,
            (c_uint32 * 624)(*internal[:624]), internal[624], kept)
        node_ptr = core.cc_search_root(buf)
        if rc:
            raise MemoryError("the compiled search ran out of memory")
        while True:
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            if iterations is not None:
                if done >= iterations:
                    break
                k = core.cc_search_run(buf, min(CHUNK, iterations - done), -1.0, done)
            else:  # the seconds left, on the core's own clock
                left = max(0.0, deadline - time.monotonic())  # type: ignore[operator]
                k = core.cc_search_run(buf, CHUNK, left, done)
            if k < 0:
                raise MemoryError("the compiled search ran out of memory")
            done += k
            if iterations is None and k < CHUNK:
                break  # the deadline
    except BaseException:
        if started:
            _give_rng(core, buf, rng, gauss)
            core.cc_search_end(buf)
            if node_ptr:
                core.cc_tree_free(node_ptr, None)
        raise
    _give_rng(core, buf, rng, gauss)
    core.cc_search_end(buf)
    return result_of(CoreNode(core, node_ptr), done)  # type: ignore[arg-type]


def _give_rng(core: Core, buf: Any, rng: random.Random, gauss: float | None) -> None:
    """Leave ``rng`` where the core's generator is: as the Python search would."""
    words = (c_uint32 * 624)()
    index = core.cc_search_rng(buf, words)
    rng.setstate((3, (*words, index), gauss))
