"""A search tree kept from one move to the next (Hard), so that what a search learnt about
the moves after its own is not thrown away.

The tree is over the public game (see :mod:`.ismcts`), so the moves the others made since
are simply followed down it: the node they lead to, if the last search went there, becomes
the next search's root, with every statistic gathered below it. Anything else (another
game, an undo, a move the tree never tried) starts a fresh tree.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ..rules.moves import Move
from .ismcts import _Node

if TYPE_CHECKING:
    from .compiled_search import CoreNode

__all__ = ["Tree"]


class Tree:
    """The root a search ended with, and the public game it was searched at: ``key``
    (who searched which game) and the moves played up to it."""

    __slots__ = ("key", "moves", "root")

    def __init__(self) -> None:
        self.key: Hashable = None
        self.moves: tuple[Move, ...] = ()
        self.root: _Node | CoreNode | None = None

    def clear(self) -> None:
        self.key, self.moves, self.root = None, (), None

    def keep(self, key: Hashable, moves: tuple[Move, ...], root: _Node | CoreNode) -> None:
        """Remember ``root``, searched after ``moves`` of game ``key``."""
        self.key, self.moves, self.root = key, moves, root

    def reuse(self, key: Hashable, moves: tuple[Move, ...]) -> _Node | CoreNode | None:
        """The kept tree's node for the position after ``moves`` of game ``key``, once
        that position follows the kept one by at least a move; else None, and the kept
        tree is dropped (the same position asked again is searched afresh, so that it
        gets the same move again, e.g. after an undo)."""
        root, known, old = self.root, self.moves, self.key
        self.clear()  # the old root's other branches are freed as we go down
        if root is None or key != old:
            return None
        if len(moves) <= len(known) or moves[: len(known)] != known:
            return None
        node: _Node | CoreNode | None = root
        for move in moves[len(known) :]:
            node = node.child(move)
            if node is None:
                return None
        return node

