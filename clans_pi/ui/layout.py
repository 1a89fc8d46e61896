"""Where things go on the play screen, for any window size and orientation.

Sizes scale with the short side of the window (``scale`` = 1 at 480 px, the original 7"
display), so a touch target is never under 48 px there. Landscape windows put the board and,
under it, the epoch chart and score track on the left, and the players' panel on the right;
portrait windows stack board, chart strip and panel.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

BASE = 480  # the short side that scale 1.0 is designed for


@dataclass(frozen=True, slots=True)
class Layout:
    """Rectangles of the play screen and the size unit everything else derives from."""

    size: tuple[int, int]
    scale: float
    board: pygame.Rect  # the board drawing, exactly the board's aspect ratio
    board_area: pygame.Rect  # the board's cell (board centred in it)
    strip: pygame.Rect  # epoch chart and score track
    panel: pygame.Rect  # whose turn, players with their peek, buttons
    portrait: bool

    @property
    def unit(self) -> int:
        """The minimum touch target side (48 px at scale 1)."""
        return max(48, round(48 * self.scale))

    @property
    def pad(self) -> int:
        return max(4, round(6 * self.scale))

    def px(self, size: float) -> int:
        """A font or line size designed at scale 1, scaled."""
        return max(9, round(size * self.scale))


def scale_for(size: tuple[int, int]) -> float:
    return min(size) / BASE


def play_layout(size: tuple[int, int], aspect: float) -> Layout:
    """The play screen's layout for a ``size`` window and a board of ``aspect`` (w/h)."""
    w, h = size
    s = scale_for(size)
    pad = max(4, round(6 * s))
    strip_min = round(118 * s)
    if h * 12 < w * 17:  # not tall enough to stack board, strip and panel
        panel_w = round(250 * s)
        col = pygame.Rect(0, 0, w - panel_w, h)
        panel = pygame.Rect(col.right, 0, panel_w, h)
        board_h = min((col.width - 2 * pad) / aspect, h - strip_min - 2 * pad)
        board_w = board_h * aspect
        area = pygame.Rect(col.left, col.top, col.width, round(board_h) + 2 * pad)
        strip = pygame.Rect(col.left, area.bottom, col.width, h - area.bottom)
        portrait = False
    else:
        board_w = w - 2 * pad
        board_h = board_w / aspect
        area = pygame.Rect(0, 0, w, round(board_h) + 2 * pad)
        strip = pygame.Rect(0, area.bottom, w, max(strip_min, round(150 * s)))
        panel = pygame.Rect(0, strip.bottom, w, h - strip.bottom)
        portrait = True
    board = pygame.Rect(0, 0, int(board_w), int(board_h))
    board.center = area.center
    return Layout((w, h), s, board, area, strip, panel, portrait)


def split_h(rect: pygame.Rect, *weights: float, gap: int = 0) -> list[pygame.Rect]:
    """Split ``rect`` left to right in proportion to ``weights``, with ``gap`` between."""
    total = sum(weights)
    free = rect.width - gap * (len(weights) - 1)
    out, x = [], rect.left
    for i, wt in enumerate(weights):
        width = rect.right - x if i == len(weights) - 1 else round(free * wt / total)
        out.append(pygame.Rect(x, rect.top, width, rect.height))
        x += width + gap
    return out


def split_v(rect: pygame.Rect, *weights: float, gap: int = 0) -> list[pygame.Rect]:
    """Split ``rect`` top to bottom in proportion to ``weights``, with ``gap`` between."""
    total = sum(weights)
    free = rect.height - gap * (len(weights) - 1)
    out, y = [], rect.top
    for i, wt in enumerate(weights):
        height = rect.bottom - y if i == len(weights) - 1 else round(free * wt / total)
        out.append(pygame.Rect(rect.left, y, rect.width, height))
        y += height + gap
    return out


def centered(rect: pygame.Rect, w: int, h: int) -> pygame.Rect:
    r = pygame.Rect(0, 0, min(w, rect.width), min(h, rect.height))
    r.center = rect.center
    return r
