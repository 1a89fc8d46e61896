"""A list taller than its window, moved by a finger: press, drag, let go. Its unit is
the caller's: pixels, or rows for a list that moves a whole row at a time.

A press only becomes a drag once the finger has moved a little (``slop``), so a tap on a
row of the list stays a tap. The list is drawn from :attr:`Scroll.offset` (how far its top
is above the window's top), always between 0 and :attr:`Scroll.limit`.
"""

from __future__ import annotations

import pygame

from .canvas import Canvas
from .theme import PANEL_HI, TEXT_DIM


class Scroll:
    """Where a list of ``content`` pixels stands in a window of ``view`` pixels."""

    def __init__(self) -> None:
        self.offset = 0
        self.content = 0
        self.view = 0
        self.dragging = False
        self._grab: tuple[float, int] | None = None  # where the finger went down, and offset

    def resize(self, content: int, view: int) -> None:
        self.content, self.view = content, view
        self.offset = self._clamp(self.offset)

    @property
    def limit(self) -> int:
        """The furthest the list can be moved (0: it fits its window)."""
        return max(0, self.content - self.view)

    @property
    def scrolls(self) -> bool:
        return self.limit > 0

    def _clamp(self, offset: float) -> int:
        return max(0, min(self.limit, round(offset)))

    def to(self, offset: float) -> None:
        self.offset = self._clamp(offset)

    def press(self, y: float) -> None:
        """A finger went down on the list at height ``y``."""
        self._grab = (y, self.offset)
        self.dragging = False

    @property
    def held(self) -> bool:
        """A finger is down on the list (pressed, not yet released)."""
        return self._grab is not None

    def drag(self, y: float, slop: float) -> bool:
        """The finger is at ``y`` now; returns True when it is dragging the list (it has
        moved ``slop`` pixels or more since it went down)."""
        if self._grab is None:
            return False
        start, was = self._grab
        if not self.dragging and abs(y - start) < slop:
            return False
        self.dragging = True
        self.offset = self._clamp(was - (y - start))
        return True

    def release(self) -> bool:
        """The finger came up; returns True if it had been dragging the list."""
        dragged = self.dragging
        self._grab, self.dragging = None, False
        return dragged


def draw_scrollbar(canvas: Canvas, track: pygame.Rect, scroll: Scroll) -> None:
    """A thin bar along ``track`` showing which part of the list is in view (nothing when
    all of it is)."""
    if not scroll.scrolls or track.height <= 0:
        return
    radius = track.width // 2
    canvas.box(track, PANEL_HI, radius=radius)
    size = max(track.width * 2, round(track.height * scroll.view / scroll.content))
    top = track.top + round((track.height - size) * scroll.offset / scroll.limit)
    canvas.box(pygame.Rect(track.left, top, track.width, size), TEXT_DIM, radius=radius)
