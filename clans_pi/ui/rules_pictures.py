"""The rules pages' pictures, drawn from the game's own pieces: territories as the board
tiles them, huts as the board draws them, the board's count plates, chips and arrows, and
the epoch chart as the play screen shows it. Made-up examples only: no game's state is
read, so a picture never shows anybody's clan (R22)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from ..rules.constants import CLANS
from ..rules.epochs import EpochChart
from .board_view import BIG_GROUP
from .canvas import Canvas
from .clan_look import ClanLook
from .icons import count_badge, draw_arrow, draw_eye, hut_icon
from .panel import draw_epoch_table, draw_good_bad, terrain_tile
from .theme import ACCENT, CARD, SELECT, TEXT_DIM

Huts = Sequence[tuple[str, int]]  # (clan, huts) in a territory


class Sketch:
    """One picture: territories laid out on a grid of cells in ``rect``."""

    def __init__(self, canvas: Canvas, rect: pygame.Rect, look: ClanLook, cols: int,
                 rows: int) -> None:
        self.canvas, self.look = canvas, look
        self.cell = min(rect.width // cols, rect.height // rows)
        self.origin = (rect.centerx - self.cell * cols // 2, rect.centery - self.cell * rows // 2)
        self.digits = max(10, self.cell // 5)

    def at(self, col: float, row: float, size: float = 1.0) -> pygame.Rect:
        side = round(self.cell * 0.86 * size)
        r = pygame.Rect(0, 0, side, side)
        r.center = (round(self.origin[0] + (col + 0.5 * size) * self.cell),
                    round(self.origin[1] + (row + 0.5 * size) * self.cell))
        return r

    def territory(self, col: float, row: float, terrain: str, huts: Huts = (), *,
                  total: bool = True, faded: Sequence[str] = (), size: float = 1.0
                  ) -> pygame.Rect:
        """A territory tile with its huts (each clan's count on a plate when above one) and
        its total (ringed at 7 or more, R9), as the board shows them."""
        r = self.at(col, row, size)
        terrain_tile(self.canvas, terrain, r)
        present = [(c, n) for c, n in huts if n]
        if not present:
            return r
        hut = max(12, round(r.width * (0.34 if len(present) > 2 else 0.4)))
        per_row = 3 if len(present) > 4 else 2 if len(present) > 1 else 1
        surf = self.canvas.surface
        for k, (clan, n) in enumerate(present):
            cx = r.centerx + round((k % per_row - (min(len(present), per_row) - 1) / 2) * hut
                                   * 1.05)
            cy = r.centery + round((k // per_row - (len(present) - 1) // per_row / 2) * hut
                                   * 1.05)
            icon = pygame.Rect(0, 0, hut, hut)
            icon.center = (cx, cy)
            surf.blit(hut_icon(clan, hut, 0, self.look), icon)
            if clan in faded:
                draw_good_bad(surf, icon.inflate(-hut // 5, -hut // 5), False)
            elif n > 1 and len(present) > 1:
                badge = count_badge(n, self.digits, (20, 20, 24), (255, 255, 255))
                surf.blit(badge, badge.get_rect(center=(icon.right - 2, icon.bottom - 2)))
        whole = sum(n for _, n in present)
        if total and whole >= 2:
            ring = BIG_GROUP if whole >= 7 else None
            badge = count_badge(whole, self.digits, (244, 242, 236), (20, 20, 24), ring)
            surf.blit(badge, badge.get_rect(center=(r.left + 4, r.top + 4)))
        return r

    def arrow(self, a: pygame.Rect, b: pygame.Rect, color: tuple[int, int, int] = SELECT
              ) -> None:
        """An arrow from tile ``a``'s edge to tile ``b``'s, as the board shows a move."""
        start = _short(b.center, a.center, a.width * 0.4)
        draw_arrow(self.canvas.surface, start, _short(a.center, b.center, b.width * 0.45),
                   color, max(3, self.cell // 16))

    def mark(self, r: pygame.Rect, good: bool) -> None:
        """A tick (allowed) or a cross (not allowed) beside tile ``r``."""
        side = max(14, self.cell // 3)
        m = pygame.Rect(0, 0, side, side)
        m.midleft = (r.right + 3, r.centery)
        draw_good_bad(self.canvas.surface, m, good)


def _short(a: tuple[int, int], b: tuple[int, int], by: float) -> tuple[float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = max(1.0, (dx * dx + dy * dy) ** 0.5)
    return b[0] - dx / d * by, b[1] - dy / d * by


def _secret(s: Sketch) -> None:
    """The five clans, and the eye every player uses to peek at their own."""
    rect = pygame.Rect(s.origin, (s.cell * 5, s.cell * 2))
    side = round(s.cell * 0.7)
    for k, clan in enumerate(CLANS):
        r = pygame.Rect(0, 0, side, side)
        r.center = (rect.left + round((k + 0.5) * s.cell), rect.top + s.cell // 2)
        s.canvas.surface.blit(hut_icon(clan, side, 0, s.look), r)
    eye = pygame.Rect(0, 0, s.cell, s.cell)
    eye.center = (rect.centerx, rect.top + round(s.cell * 1.5))
    pygame.draw.ellipse(s.canvas.surface, CARD, eye)
    draw_eye(s.canvas.surface, eye.inflate(-s.cell // 5, -s.cell // 5), TEXT_DIM, closed=True)


def _move(s: Sketch) -> None:
    """A move (R6): every hut of a territory into a neighbour; and the 7+ rule (R9)."""
    a = s.territory(0, 0, "forest", (("red", 1), ("blue", 1)))
    b = s.territory(1.2, 0, "steppe", (("green", 2),))
    s.arrow(a, b)
    big = s.territory(0, 1.3, "mountain", (("red", 3), ("yellow", 4)))
    ok = s.territory(1.3, 1.3, "grassland", (("blue", 5), ("green", 3)))
    no = s.territory(0, 2.6, "forest", (("black", 2),))
    s.arrow(big, ok)
    s.mark(ok, True)
    s.arrow(big, no, TEXT_DIM)
    s.mark(no, False)


def _village(s: Sketch) -> None:
    """A village (R10, R12): huts with only empty neighbours; its chip and its value;
    strife when all five clans meet (R12.2)."""
    for col, row, terrain in ((0, 0, "forest"), (1, 0, "mountain"), (0, 1, "grassland")):
        s.territory(col, row, terrain)
    v = s.territory(1, 1, "steppe", (("red", 2), ("blue", 1)), total=False)
    chip = count_badge(4, s.digits, ACCENT, (20, 20, 24), (20, 20, 24))
    value = count_badge(3, s.digits, (20, 20, 24), (255, 255, 255))
    at = chip.get_rect(topleft=(v.left + 2, v.top + 2))
    s.canvas.surface.blit(chip, at)
    s.canvas.surface.blit(value, value.get_rect(midleft=(at.right + 1, at.centery)))
    s.territory(2.2, 0.2, "forest", tuple((c, 1 if c in ("green", "black") else 2)
                                           for c in CLANS), total=False,
                faded=("green", "black"), size=1.7)


def _epochs(s: Sketch, chart: EpochChart) -> None:
    """The epoch chart as the play screen shows it, at the start of a game."""
    rect = pygame.Rect(s.origin, (s.cell * 3, s.cell * 2))
    draw_epoch_table(s.canvas, rect, chart, 0, 1, max(18, s.digits * 2))


def _end(s: Sketch) -> None:
    """The end (R18-R21): the twelfth chip, then clans revealed and points counted."""
    for k in range(3):
        badge = count_badge(10 + k, s.digits, ACCENT, (20, 20, 24), (20, 20, 24))
        s.canvas.surface.blit(badge, badge.get_rect(center=s.at(k, 0).center))
    side = round(s.cell * 0.6)
    for k, clan in enumerate(("red", "blue", "yellow")):
        r = pygame.Rect(0, 0, side, side)
        r.center = s.at(k, 1).center
        s.canvas.surface.blit(hut_icon(clan, side, 0, s.look), r)


#: Each rules page's picture: (columns, rows) of its grid, and how it is drawn.
PICTURES: tuple[tuple[tuple[int, int], Callable[..., None]], ...] = (
    ((5, 2), _secret),
    ((3, 4), _move),
    ((4, 2), _village),
    ((3, 2), _epochs),
    ((3, 2), _end),
)


def draw_picture(canvas: Canvas, rect: pygame.Rect, page: int, look: ClanLook,
                 chart: EpochChart) -> None:
    """Rules page ``page``'s picture in ``rect``."""
    (cols, rows), draw = PICTURES[page]
    canvas.box(rect, CARD, radius=10)
    canvas.region("picture", rect)
    sketch = Sketch(canvas, rect.inflate(-12, -12), look, cols, rows)
    if draw is _epochs:
        draw(sketch, chart)
    else:
        draw(sketch)
