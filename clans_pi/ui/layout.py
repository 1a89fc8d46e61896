"""Where things go on the play screen, for any window size and orientation.

Sizes scale with the short side of the window (``scale`` = 1 at 480 px, the original 7"
display), so a touch target is never under 48 px there. The board gets most of the window:
it is at the top left, with the players' row (``strip``) under it and a narrow column
(``panel``: whose turn, the score track, the epoch chart, the buttons) on the right, so that
at 800x480 the board covers about two thirds of the screen. Upright windows turn the board a
quarter turn to give it their height.
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
    strip: pygame.Rect  # the players' row, under the board
    panel: pygame.Rect  # whose turn, score track, epoch chart, buttons
    portrait: bool  # an upright window: the board is drawn turned (BoardView ``turned``)

    @property
    def unit(self) -> int:
        """The minimum touch target side (48 px at scale 1)."""
        return max(48, round(48 * self.scale))

    @property
    def pad(self) -> int:
        return max(4, round(6 * self.scale))

    def px(self, size: float) -> int:
        """A font or line size designed at scale 1, scaled (text is never drawn under
        12 px all the same: :attr:`Canvas.least_px <clans_pi.ui.canvas.Canvas>`)."""
        return max(9, round(size * self.scale))


def scale_for(size: tuple[int, int]) -> float:
    return min(size) / BASE


def play_layout(size: tuple[int, int], aspect: float) -> Layout:
    """The play screen's layout for a ``size`` window and a board of ``aspect`` (w/h).

    Always the board at the top left, the players' row under it and a narrow column on the
    right. An upright window (``portrait``) turns the board a quarter turn so that it gets
    the window's height; the players' cards then stack in the room under it."""
    w, h = size
    s = scale_for(size)
    pad = max(4, round(6 * s))
    portrait = h * 12 >= w * 17  # tall enough that a turned board gains on a flat one
    panel_w = round((130 if portrait else 150) * s)
    strip_min = round(64 * s)
    col_w = w - panel_w
    shape = 1 / aspect if portrait else aspect  # the drawing's width / height
    board_w = min(col_w - 2 * pad, (h - strip_min - 2 * pad) * shape)
    board_h = board_w / shape
    area = pygame.Rect(0, 0, col_w, round(board_h) + 2 * pad)
    strip = pygame.Rect(0, area.bottom, col_w, h - area.bottom)
    panel = pygame.Rect(col_w, 0, panel_w, h)
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
