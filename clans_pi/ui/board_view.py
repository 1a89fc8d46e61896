"""The board on screen: terrain, rivers and lakes drawn once; huts, villages, choices and
the last move drawn over them from a public :class:`Observation` (R22).

Board coordinates are 0..1 on both axes (the board file's ``aspect`` is width / height);
:class:`BoardView` maps them onto one screen rectangle, keeps the static picture in a cached
surface and answers "which territory is under this point" from a hit map.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Sequence

import pygame

from ..rules.board import Board
from ..rules.constants import CLANS
from ..rules.observation import Observation
from .canvas import Canvas
from .clan_look import DEFAULT_LOOK, ClanLook
from .icons import count_badge, draw_arrow, hut_icon
from .theme import (
    ACCENT,
    BORDER,
    SEA,
    SELECT,
    TARGET,
    TERRAIN_COLORS,
    TERRAIN_MARK,
    WATER,
    WATER_EDGE,
    Color,
)

Point = tuple[float, float]
BIG_GROUP = (226, 88, 80)  # the ring round a total of 7 or more huts (R9)
ORDER_PLATE = (128, 72, 200)  # a new village's place in the order (no clan's colour)

# Offsets of 1..5 hut icons around a territory's anchor, in icon sizes.
_CLUSTER: tuple[tuple[Point, ...], ...] = (
    (),
    ((0, 0),),
    ((-0.53, 0), (0.53, 0)),
    ((-0.53, -0.5), (0.53, -0.5), (0, 0.5)),
    ((-0.53, -0.5), (0.53, -0.5), (-0.53, 0.5), (0.53, 0.5)),
    ((-1.05, -0.5), (0, -0.5), (1.05, -0.5), (-0.53, 0.5), (0.53, 0.5)),
)


def polygon_area(points: Sequence[Point]) -> float:
    return abs(
        sum(
            x1 * y2 - x2 * y1
            for (x1, y1), (x2, y2) in zip(points, (*points[1:], points[0]), strict=True)
        )
    ) / 2


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd point-in-polygon test."""
    x, y = point
    hit = False
    j = len(polygon) - 1
    for i, (xi, yi) in enumerate(polygon):
        xj, yj = polygon[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


class BoardView:
    """The board drawn into ``rect`` (screen coordinates)."""

    def __init__(self, board: Board, rect: pygame.Rect, look: ClanLook = DEFAULT_LOOK, *,
                 turned: bool = False) -> None:
        self.board = board
        self.look = look  # how the clans' huts look (fifth clan black or white, marks)
        self.rect = pygame.Rect(rect)
        # ``turned``: the board drawn a quarter turn clockwise (its top edge on the right),
        # so that an upright window gives it its height; ``rect`` then has the aspect
        # 1 / board.aspect. Huts, marks and text stay upright.
        self.turned = turned
        x0, y0 = self.rect.topleft
        self.polygons: tuple[tuple[Point, ...], ...] = tuple(
            tuple(self._at(px, py, x0, y0) for px, py in t.polygon) for t in board.territories
        )
        self.anchors: tuple[Point, ...] = tuple(
            self._at(*t.anchor, x0, y0)
            if t.anchor is not None
            else _centroid(poly)
            for t, poly in zip(board.territories, self.polygons, strict=True)
        )
        areas = [polygon_area(p) for p in self.polygons if p]
        typical = math.sqrt(sorted(areas)[len(areas) // 2]) if areas else self.rect.width / 10
        self.hut = max(12, round(typical * 0.44))
        self._background: pygame.Surface | None = None
        self._hitmap: pygame.Surface | None = None

    # ------------------------------------------------------------ static picture

    @property
    def background(self) -> pygame.Surface:
        if self._background is None:
            self._background = self._draw_background()
        return self._background

    def _at(self, px: float, py: float, x0: float = 0, y0: float = 0) -> Point:
        """The point of the board at ``(px, py)`` (fractions of its width and height, as
        the board file gives them) on the screen, ``(x0, y0)`` being the drawing's corner."""
        w, h = self.rect.size
        if self.turned:
            return (x0 + (1 - py) * w, y0 + px * h)
        return (x0 + px * w, y0 + py * h)

    def _local(self, poly: Sequence[Point]) -> list[Point]:
        return [(x - self.rect.x, y - self.rect.y) for x, y in poly]

    def _draw_background(self) -> pygame.Surface:
        surf = pygame.Surface(self.rect.size)
        surf.fill(SEA)
        line = max(1, round(self.hut / 14))
        for t, poly in zip(self.board.territories, self.polygons, strict=True):
            if not poly:
                continue
            local = self._local(poly)
            pygame.draw.polygon(surf, TERRAIN_COLORS[t.terrain], local)
            self._texture(surf, t.id, t.terrain, local)
        for poly in self.polygons:
            if poly:
                pygame.draw.polygon(surf, BORDER, self._local(poly), line)
        for lake in self.board.lakes:
            pts = [self._at(x, y) for x, y in lake]
            pygame.draw.polygon(surf, WATER, pts)
            pygame.draw.polygon(surf, WATER_EDGE, pts, line + 1)
        for river in self.board.rivers:
            pts = [self._at(x, y) for x, y in river]
            pygame.draw.lines(surf, WATER_EDGE, False, pts, line * 3 + 2)
            pygame.draw.lines(surf, WATER, False, pts, line * 3)
        if pygame.display.get_surface() is not None:
            surf = surf.convert()
        return surf

    def _texture(self, surf: pygame.Surface, tid: int, terrain: str, poly: list[Point]) -> None:
        """Terrain marks on a jittered grid inside the territory (same every time)."""
        rng = random.Random(tid * 7919 + 17)
        step = max(7.0, self.hut * 0.75)
        xs = [p[0] for p in poly]
        ys = [p[1] for p in poly]
        mark = TERRAIN_MARK[terrain]
        m = step * 0.28
        lw = max(1, round(self.hut / 16))
        y = min(ys) + step / 2
        row = 0
        while y < max(ys):
            x = min(xs) + step / 2 + (step / 2 if row % 2 else 0)
            while x < max(xs):
                p = (x + rng.uniform(-0.25, 0.25) * step, y + rng.uniform(-0.25, 0.25) * step)
                if inside(p, poly) and _edge_distance(p, poly) > m * 1.4:
                    _mark(surf, terrain, p, m, mark, lw)
                x += step
            y += step * 0.8
            row += 1

    @property
    def hitmap(self) -> pygame.Surface:
        if self._hitmap is None:
            hm = pygame.Surface(self.rect.size)
            hm.fill((0, 0, 0))
            for t, poly in zip(self.board.territories, self.polygons, strict=True):
                if poly:
                    pygame.draw.polygon(hm, (t.id + 1, 0, 0), self._local(poly))
            self._hitmap = hm
        return self._hitmap

    def territory_at(self, pos: Point) -> int | None:
        """The territory under screen point ``pos``, or None (sea, lake, outside)."""
        x, y = int(pos[0]) - self.rect.x, int(pos[1]) - self.rect.y
        if not (0 <= x < self.rect.width and 0 <= y < self.rect.height):
            return None
        value = self.hitmap.get_at((x, y))[0]
        return value - 1 if value else None

    def touch_point(self, territory: int) -> tuple[int, int]:
        """A screen point that hit-tests to ``territory`` (its anchor where that is inside
        it): where a finger touches it, for tests, benchmarks and the booted image's
        checks."""
        ax, ay = self.anchors[territory]
        if self.territory_at((ax, ay)) == territory:
            return round(ax), round(ay)
        xs = [p[0] for p in self.polygons[territory]]
        ys = [p[1] for p in self.polygons[territory]]
        for y in range(int(min(ys)), int(max(ys)) + 1, 2):
            for x in range(int(min(xs)), int(max(xs)) + 1, 2):
                if self.territory_at((x, y)) == territory:
                    return x, y
        raise ValueError(f"territory {territory} has no point on the screen")

    # ------------------------------------------------------------ the position

    def cluster(self, territory: int, count: int) -> list[pygame.Rect]:
        """Where ``count`` hut icons of ``territory`` go."""
        ax, ay = self.anchors[territory]
        s = self.hut
        out = []
        for dx, dy in _CLUSTER[count]:
            r = pygame.Rect(0, 0, s, s)
            r.center = (round(ax + dx * s), round(ay + dy * s))
            out.append(r)
        return out

    def draw(
        self,
        canvas: Canvas,
        obs: Observation,
        *,
        selected: int | None = None,
        targets: Collection[int] = (),
        marked: Sequence[int] = (),
        show_last_move: bool = True,
    ) -> None:
        """Draw the board for ``obs``: huts, villages, the selection and its targets,
        ``marked`` territories numbered 1, 2, ... (a village order), the last move."""
        surf = canvas.surface
        surf.blit(self.background, self.rect)
        canvas.region("board", self.rect)
        width = max(2, round(self.hut / 7))
        for t in targets:
            pygame.draw.polygon(surf, TARGET, self.polygons[t], width + 1)
        village_at = {v.territory: v for v in obs.villages}
        for v in obs.villages:
            pygame.draw.polygon(surf, ACCENT, self.polygons[v.territory], width)
        if selected is not None:
            pygame.draw.polygon(surf, SELECT, self.polygons[selected], width + 1)
        if show_last_move and obs.moves:
            last = obs.moves[-1]
            self._arrow(surf, last.src, last.dst)
        for t, huts in enumerate(obs.huts):
            if any(huts):
                self._draw_huts(canvas, t, huts, village=t in village_at)
        for t, v in village_at.items():
            self._village_label(canvas, t, v.chip, v.value, v.removed)
        for k, t in enumerate(marked, start=1):
            self._order_badge(surf, t, k)

    @property
    def digits(self) -> int:
        """How high (px) the board's numbers are drawn: 12 at 800x480 (read from across
        the table), growing with the board; never under 7 (the 3.5" display)."""
        return max(7, round(self.hut * 0.55))

    def _draw_huts(self, canvas: Canvas, territory: int, huts: Sequence[int], *,
                   village: bool) -> None:
        """The huts of each clan in ``territory``, each clan's count (when above one) on a
        dark plate at its hut's foot, and the territory's total (when two or more, not on
        a village, whose value is shown instead) on a light plate above them, ringed when
        it is 7 or more (R9: such a group can only move onto as many huts or more)."""
        surf = canvas.surface
        present = [(CLANS[c], n) for c, n in enumerate(huts) if n]
        rects = self.cluster(territory, len(present))
        for (clan, _n), r in zip(present, rects, strict=True):
            surf.blit(hut_icon(clan, self.hut, 0, self.look), r)
        if len(present) > 1:
            for (_clan, n), r in zip(present, rects, strict=True):
                if n > 1:
                    badge = count_badge(n, self.digits, (20, 20, 24), (255, 255, 255))
                    at = badge.get_rect(center=(r.right - 2, r.bottom - 2))
                    surf.blit(badge, at)
                    canvas.note("count", str(n), at, fits=True, height=self.digits)
        total = sum(huts)
        if total >= 2 and not village:
            ring = BIG_GROUP if total >= 7 else None
            badge = count_badge(total, self.digits, (244, 242, 236), (20, 20, 24), ring)
            top = min(r.top for r in rects)
            left = min(r.left for r in rects)
            at = badge.get_rect(center=(left - 1, top + 1))
            surf.blit(badge, at)
            canvas.note("total", str(total), at, fits=True, height=self.digits)

    def _arrow(self, surf: pygame.Surface, src: int, dst: int) -> None:
        (x1, y1), (x2, y2) = self.anchors[src], self.anchors[dst]
        d = math.hypot(x2 - x1, y2 - y1) or 1
        shorten = min(self.hut * 0.9, d * 0.3)
        end = (x2 - (x2 - x1) / d * shorten, y2 - (y2 - y1) / d * shorten)
        draw_arrow(surf, (x1, y1), end, SELECT, max(3, round(self.hut / 5)))

    def _village_label(self, canvas: Canvas, t: int, chip: int, value: int,
                       removed: bool) -> None:
        """Chip number on a disc and the village's value beside it."""
        value_plate = count_badge(0 if removed else value, self.digits,
                                  (150, 40, 40) if removed else (20, 20, 24), (255, 255, 255))
        chip_plate = count_badge(chip, self.digits, ACCENT, (20, 20, 24), (20, 20, 24))
        ax, ay = self.anchors[t]
        chip_r = chip_plate.get_rect()
        chip_r.center = (round(ax - chip_r.width * 0.55),
                         round(ay - self.hut * 0.75 - chip_r.height * 0.5))
        canvas.surface.blit(chip_plate, chip_r)
        canvas.note("count", str(chip), chip_r, fits=True, height=self.digits)
        pill = value_plate.get_rect(midleft=(chip_r.right + 1, chip_r.centery))
        canvas.surface.blit(value_plate, pill)
        canvas.note("count", "0" if removed else str(value), pill, fits=True,
                    height=self.digits)

    def _order_badge(self, surf: pygame.Surface, t: int, k: int) -> None:
        """The village's place in the order being chosen (R11): a purple plate, unlike
        the totals (light), the chips (amber) and every clan's colour."""
        badge = count_badge(k, self.digits + 2, ORDER_PLATE, (255, 255, 255), (20, 20, 24))
        ax, ay = self.anchors[t]
        surf.blit(badge, badge.get_rect(center=(round(ax + self.hut * 0.9),
                                                round(ay - self.hut * 0.9))))

    def highlight(self, surf: pygame.Surface, t: int, color: Color, width: int) -> None:
        pygame.draw.polygon(surf, color, self.polygons[t], width)


def _centroid(poly: Sequence[Point]) -> Point:
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))


def _edge_distance(p: Point, poly: Sequence[Point]) -> float:
    """Distance from ``p`` to the nearest edge of ``poly``."""
    best = math.inf
    px, py = p
    for (x1, y1), (x2, y2) in zip(poly, (*poly[1:], poly[0]), strict=True):
        dx, dy = x2 - x1, y2 - y1
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / ll))
        best = min(best, math.hypot(px - x1 - t * dx, py - y1 - t * dy))
    return best


def _mark(surf: pygame.Surface, terrain: str, p: Point, m: float, color: Color, lw: int) -> None:
    x, y = p
    if terrain == "forest":
        pygame.draw.polygon(surf, color, [(x, y - m * 1.3), (x + m, y + m * 0.6),
                                          (x - m, y + m * 0.6)])
        pygame.draw.line(surf, color, (x, y + m * 0.6), (x, y + m * 1.1), lw)
    elif terrain == "mountain":
        pygame.draw.lines(surf, color, False, [(x - m * 1.2, y + m * 0.6), (x - m * 0.2, y - m),
                                               (x + m * 0.4, y), (x + m, y - m * 0.5),
                                               (x + m * 1.5, y + m * 0.6)], lw + 1)
    elif terrain == "steppe":
        pygame.draw.line(surf, color, (x - m, y), (x + m * 0.6, y), lw)
        pygame.draw.line(surf, color, (x - m * 0.2, y + m * 0.6), (x + m, y + m * 0.6), lw)
    else:  # grassland: tufts
        for dx in (-0.6, 0, 0.6):
            pygame.draw.line(surf, color, (x + dx * m, y + m * 0.5),
                             (x + dx * m * 1.6, y - m * 0.6), lw)
