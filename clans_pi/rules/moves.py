"""A move (R8): all huts of one territory into one non-empty neighbour, plus the village order."""

from __future__ import annotations

from typing import NamedTuple


class Move(NamedTuple):
    """Move all huts of ``src`` into ``dst``.

    ``order`` is the mover's choice of founding order (R11) when the move founds two or more
    villages: territory ids, first founded first. ``None`` means ascending territory id.
    A named tuple, so that search can make millions of them cheaply.
    """

    src: int
    dst: int
    order: tuple[int, ...] | None = None

    def __str__(self) -> str:
        text = f"{self.src}->{self.dst}"
        if self.order:
            text += " [" + ",".join(map(str, self.order)) + "]"
        return text

    def with_order(self, order: tuple[int, ...] | list[int] | None) -> Move:
        """Return the same move with another village order."""
        return Move(self.src, self.dst, None if order is None else tuple(order))

    @property
    def action(self) -> int:
        """An int id of the (src, dst) pair, stable for a board: ``src * 64 + dst``."""
        return self.src * 64 + self.dst
