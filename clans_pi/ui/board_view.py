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
from .canvas import Canvas, numeral
from .clan_look import DEFAULT_LOOK, ClanLook
from .icons import chip_icon, draw_arrow, hut_icon
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

    def __init__(self, board: Board, rect: pygame.Rect, look: ClanLook = DEFAULT_LOOK) -> None:
        self.board = board
        self.look = look  # how the clans' huts look (fifth clan black or white, marks)
        self.rect = pygame.Rect(rect)
        x0, y0, w, h = self.rect
        self.polygons: tuple[tuple[Point, ...], ...] = tuple(
            tuple((x0 + px * w, y0 + py * h) for px, py in t.polygon) for t in board.territories
        )
        self.anchors: tuple[Point, ...] = tuple(
            (x0 + t.anchor[0] * w, y0 + t.anchor[1] * h)
            if t.anchor is not None
            else _centroid(poly)
            for t, poly in zip(board.territories, self.polygons, strict=True)
        )
        areas = [polygon_area(p) for p in self.polygons if p]
        typical = math.sqrt(sorted(areas)[len(areas) // 2]) if areas else w / 10
        self.hut = max(12, round(typical * 0.44))
        self._background: pygame.Surface | None = None
        self._hitmap: pygame.Surface | None = None

    # ------------------------------------------------------------ static picture

    @property
    def background(self) -> pygame.Surface:
        if self._background is None:
            self._background = self._draw_background()
        return self._background

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
        w, h = self.rect.size
        for lake in self.board.lakes:
            pts = [(x * w, y * h) for x, y in lake]
            pygame.draw.polygon(surf, WATER, pts)
            pygame.draw.polygon(surf, WATER_EDGE, pts, line + 1)
        for river in self.board.rivers:
            pts = [(x * w, y * h) for x, y in river]
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
                self._draw_huts(surf, t, huts)
        for t, v in village_at.items():
            self._village_label(canvas, t, v.chip, v.value, v.removed)
        for k, t in enumerate(marked, start=1):
            self._order_badge(surf, t, k)

    def _draw_huts(self, surf: pygame.Surface, territory: int, huts: Sequence[int]) -> None:
        present = [(CLANS[c], n) for c, n in enumerate(huts) if n]
        for (clan, n), r in zip(present, self.cluster(territory, len(present)), strict=True):
            surf.blit(hut_icon(clan, self.hut, n, self.look), r)

    def _arrow(self, surf: pygame.Surface, src: int, dst: int) -> None:
        (x1, y1), (x2, y2) = self.anchors[src], self.anchors[dst]
        d = math.hypot(x2 - x1, y2 - y1) or 1
        shorten = min(self.hut * 0.9, d * 0.3)
        end = (x2 - (x2 - x1) / d * shorten, y2 - (y2 - y1) / d * shorten)
        draw_arrow(surf, (x1, y1), end, SELECT, max(3, round(self.hut / 5)))

    def _village_label(self, canvas: Canvas, t: int, chip: int, value: int,
                       removed: bool) -> None:
        """Chip number on a disc and the village's value beside it."""
        s = max(12, round(self.hut * 0.8))
        ax, ay = self.anchors[t]
        chip_r = pygame.Rect(0, 0, s, s)
        chip_r.center = (round(ax - s * 0.55), round(ay - self.hut * 1.05 - s * 0.15))
        canvas.surface.blit(chip_icon(chip, s, ACCENT, (20, 20, 24)), chip_r)
        label = "0" if removed else str(value)
        text = numeral(label, round(s * 0.9), (255, 255, 255), width=s * 2)
        pill = text.get_rect().inflate(s // 3, 2)
        pill.midleft = (chip_r.right + 1, chip_r.centery)
        pygame.draw.rect(canvas.surface, (150, 40, 40) if removed else (20, 20, 24), pill,
                         border_radius=pill.height // 2)
        canvas.surface.blit(text, text.get_rect(center=pill.center))

    def _order_badge(self, surf: pygame.Surface, t: int, k: int) -> None:
        s = max(16, round(self.hut * 1.1))
        ax, ay = self.anchors[t]
        r = pygame.Rect(0, 0, s, s)
        r.center = (round(ax + self.hut * 0.9), round(ay - self.hut * 0.9))
        surf.blit(chip_icon(k, s, SELECT, (20, 20, 24)), r)

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
