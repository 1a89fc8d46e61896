"""The chart of how sure the table was of a player's clan, move by move, drawn
from the numbers of :mod:`clans_pi.history.hiding` (the same ones ``clans-pi history
--analysis`` prints): each line in its clan's colour over a darker edge, at least 3 px wide
(readable at 800x480 from a chair), round at its bends, ending in the clan's hut with its
mark (not colour alone; huts of ends close together moved apart, a thin line to each); the
blind guess as a faint dashed line, its label where no line or marker crosses it; give-aways
as numbered or plain markers; the move shown as a vertical line. And the ring shown while
the reading is worked out."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from ..history.hiding import percent
from .canvas import Canvas, text_height, text_width
from .clan_look import ClanLook
from .icons import hut_icon
from .theme import ACCENT, BG, CARD, SELECT, TEXT_DIM, Color, mix

#: The thinnest line a chart draws, in pixels at 800x480 (scaled up on larger screens).
LINE_PX = 3


@dataclass(frozen=True, slots=True)
class Line:
    """One player's curve: their clan, a probability after each move (index 0: the deal)."""

    clan: str
    values: Sequence[float]


#: Pixels between two huts at the curves' ends.
MARK_GAP = 2


def plot_area(rect: pygame.Rect, icon: int, columns: int = 1, lead: int = 4) -> pygame.Rect:
    """Where the lines go inside ``rect``: room at the right for the clans' huts, in
    ``columns`` of ``icon`` pixels, ``lead`` pixels from the lines' ends."""
    right = lead + columns * icon + (columns - 1) * MARK_GAP
    return pygame.Rect(rect.left + 2, rect.top + icon // 2, rect.width - right - 2,
                       rect.height - icon)


def spread(wanted: Sequence[float], size: int, low: int, high: int) -> list[int]:
    """Tops for marks ``size`` tall wanted at tops ``wanted`` (in order, top first): as near
    as can be, none over another (:data:`MARK_GAP` between), all within ``low``..``high``
    (their bottoms) where they fit. Marks that would overlap move apart round their mean."""
    step = size + MARK_GAP
    groups: list[tuple[int, int, float]] = []  # (first mark, marks, top of the first)
    for i, top in enumerate(wanted):
        group = (i, 1, float(top))
        while groups and groups[-1][2] + groups[-1][1] * step > group[2]:
            first, count, _top = groups.pop()
            count += group[1]
            mean = sum(wanted[j] - (j - first) * step for j in range(first, first + count))
            group = (first, count, mean / count)
        groups.append(group)
    tops = [math.floor(top + k * step + 0.5) for _first, count, top in groups
            for k in range(count)]
    for k in range(len(tops)):  # down from the top edge, then up from the bottom edge
        tops[k] = max(tops[k], low if k == 0 else tops[k - 1] + step)
    for k in reversed(range(len(tops))):
        tops[k] = min(tops[k], high - size if k == len(tops) - 1 else tops[k + 1] - step)
    return tops


def per_column(height: int, size: int) -> int:
    """How many marks ``size`` tall one column ``height`` high holds (at least one)."""
    return max(1, (height + MARK_GAP) // (size + MARK_GAP))


def place_marks(ends: Sequence[int], size: int, columns: int, low: int,
                high: int) -> list[tuple[int, int]]:
    """For each curve's end at height ``ends[k]``: (column, top) of its hut, ``size``
    square, no hut over another. Highest end first, each hut goes to the first column where
    it sits at its end's height, else to the one with the most room left; in each column
    the huts are then moved apart (:func:`spread`)."""
    rows = per_column(high - low, size)
    order = sorted(range(len(ends)), key=lambda k: (ends[k], k))
    placed: list[list[int]] = [[] for _ in range(columns)]
    bottoms = [low - MARK_GAP] * columns
    for k in order:
        top = min(max(ends[k] - size // 2, low), high - size)
        free = [c for c in range(columns) if len(placed[c]) < rows] or list(range(columns))
        column = next((c for c in free if bottoms[c] + MARK_GAP <= top),
                      min(free, key=lambda c: bottoms[c]))
        placed[column].append(k)
        bottoms[column] = max(top, bottoms[column] + MARK_GAP) + size
    out = [(0, 0)] * len(ends)
    for column, ks in enumerate(placed):
        tops = spread([ends[k] - size // 2 for k in ks], size, low, high)
        for k, top in zip(ks, tops, strict=True):
            out[k] = (column, top)
    return out


def point(area: pygame.Rect, total: int, k: int, p: float) -> tuple[int, int]:
    """Where probability ``p`` after move ``k`` (of ``total``) is drawn in ``area``."""
    x = area.left + (area.width * k / total if total else 0)
    y = area.bottom - area.height * max(0.0, min(1.0, p))
    return round(x), round(y)


def line_width(scale: float) -> int:
    return max(LINE_PX, round(LINE_PX * scale))


def draw_chart(canvas: Canvas, rect: pygame.Rect, lines: Sequence[Line], total: int, *,
               look: ClanLook, scale: float, blind: float, name: str,
               markers: Sequence[tuple[int, float, str]] = (), current: int | None = None,
               background: Color = BG, label: str = "", label_px: int = 0) -> pygame.Rect:
    """Draw ``lines`` (moves 0..``total``) in ``rect``; ``markers`` are (move, probability,
    label: "" a plain dot); ``current`` the move shown; ``label`` names the blind guess's
    line (at ``label_px``) where no line or marker crosses it. Returns the plotting area."""
    width = line_width(scale)
    icon = min(max(14, round(rect.height * 0.28)), round(30 * scale), rect.width // 4)
    # The huts at the lines' ends side by side in as many columns as it takes for all of
    # them to fit the height whatever their ends; clear of the move shown's dot.
    columns = max(1, -(-len(lines) // per_column(rect.height, icon)))
    lead = width + 6 if current is not None else 4
    pygame.draw.rect(canvas.surface, background, rect, border_radius=6)
    area = plot_area(rect, icon, columns, lead)
    canvas.note("chart", name, area)
    faint = mix(background, TEXT_DIM, 0.45)
    _dashed(canvas.surface, faint, point(area, total, 0, blind), point(area, total, total, blind),
            max(2, width - 1), dash=round(8 * scale) + 2)
    for p in (0.0, 1.0):  # the 0 % and 100 % edges, very faint
        a, b = point(area, total, 0, p), point(area, total, total, p)
        pygame.draw.line(canvas.surface, mix(background, TEXT_DIM, 0.2), a, b, 1)
    if current is not None:
        x = point(area, total, current, 0)[0]
        pygame.draw.line(canvas.surface, SELECT, (x, rect.top + 2), (x, rect.bottom - 3),
                         max(2, width - 1))
    curves = [[point(area, total, k, p) for k, p in enumerate(line.values)] for line in lines]
    places = place_marks([pts[-1][1] for pts in curves], icon, columns, rect.top, rect.bottom)
    huts = [pygame.Rect(area.right + lead + column * (icon + MARK_GAP), top, icon, icon)
            for column, top in places]
    for line, pts in zip(lines, curves, strict=True):
        if len(pts) > 1:
            _stroke(canvas.surface, look.ink(line.clan), pts, width + 2)
            _stroke(canvas.surface, look.color(line.clan), pts, width)
    for line, pts, hut in zip(lines, curves, huts, strict=True):
        end = pts[-1]
        if hut.left > area.right + lead or abs(hut.centery - end[1]) > 1:
            # Moved from its curve's end: a thin line from there to it.
            _stroke(canvas.surface, look.ink(line.clan), [end, hut.midleft], 3)
            _stroke(canvas.surface, look.color(line.clan), [end, hut.midleft], 1)
    for line, hut in zip(lines, huts, strict=True):  # over every line: each one whole
        canvas.surface.blit(hut_icon(line.clan, icon, look=look), hut)
        canvas.note("end", f"{name}:{line.clan}", hut)
    for line, pts in zip(lines, curves, strict=True):
        if current is not None and current < len(pts):
            x, y = pts[current]
            r = width + 2
            pygame.draw.circle(canvas.surface, look.ink(line.clan), (x, y), r + 2)
            pygame.draw.circle(canvas.surface, look.color(line.clan), (x, y), r)
    marks = []
    for k, p, number in markers:
        x, y = point(area, total, k, p)
        r = max(width + 3, round(7 * scale)) if number else width + 2
        pygame.draw.circle(canvas.surface, BG, (x, y), r + 2)
        pygame.draw.circle(canvas.surface, ACCENT, (x, y), r)
        mark = pygame.Rect(x - r, y - r, 2 * r, 2 * r)
        if number:
            canvas.text(number, mark, round(r * 1.5), BG, min_px=max(6, round(r * 1.2)))
        canvas.note("marker", f"{name}:{k}", mark)
        marks.append(mark.inflate(4, 4))
    if label:
        px = max(label_px, canvas.least_px)
        if current is not None:
            x = point(area, total, current, 0)[0]
            curves.append([(x, rect.top), (x, rect.bottom)])
        spot, crossed = label_spot((text_width(label, px) + 2, text_height(px)), area,
                                   point(area, total, 0, blind)[1], curves, marks,
                                   (width + 2) // 2 + 1)
        if crossed:  # no place is free: the label on a plate of the chart's own colour
            pygame.draw.rect(canvas.surface, background, spot.inflate(4, 2), border_radius=3)
        canvas.text(label, spot, px, TEXT_DIM, align="right")
    return area


def label_spot(size: tuple[int, int], area: pygame.Rect, line_y: int,
               curves: Sequence[Sequence[tuple[int, int]]], taken: Sequence[pygame.Rect],
               reach: int) -> tuple[pygame.Rect, bool]:
    """Where a label ``size`` goes along the straight line at height ``line_y`` in ``area``:
    just over it or under it, from the right end leftward, the first place that no curve
    (``reach`` pixels each side of its points' line) and no ``taken`` rectangle crosses; where
    every place is crossed, the one crossed least (the first such). And whether it is."""
    w, h = min(size[0], area.width), size[1]
    gap = max(2, reach)
    rows = [y for y in (line_y - gap - h, line_y + gap) if area.top <= y and y + h <= area.bottom]
    rows = rows or [max(area.top, min(line_y - gap - h, area.bottom - h))]
    best: tuple[int, pygame.Rect] | None = None
    for x in range(area.right - w, area.left - 1, -max(1, w // 4)):
        for y in rows:
            spot = pygame.Rect(x, y, w, h)
            room = spot.inflate(2 * reach, 2 * reach)
            cost = sum(bool(room.clipline(a, b)) for pts in curves
                       for a, b in itertools.pairwise(pts))
            cost += 100 * sum(spot.colliderect(t) for t in taken)
            if not cost:
                return spot, False
            if best is None or cost < best[0]:
                best = (cost, spot)
    return (best[1] if best is not None else pygame.Rect(area.right - w, rows[0], w, h)), True


def _stroke(surface: pygame.Surface, color: Color, pts: Sequence[tuple[int, int]],
            width: int) -> None:
    """A line through ``pts``, ``width`` pixels, round at every joint and end (pygame's
    wide lines are cut square at each point: an outline drawn under showed a gap at every
    bend)."""
    if len(pts) > 1:
        pygame.draw.lines(surface, color, False, pts, width)
    if width > 2:  # a disc centred on each point (pygame's circles lean a half pixel)
        for x, y in pts:
            pygame.draw.ellipse(surface, color, (x - width // 2, y - width // 2, width, width))


def _dashed(surface: pygame.Surface, color: Color, a: tuple[int, int], b: tuple[int, int],
            width: int, dash: int) -> None:
    (x0, y0), (x1, _y1) = a, b
    x = x0
    while x < x1:
        pygame.draw.line(surface, color, (x, y0), (min(x + dash, x1), y0), width)
        x += 2 * dash


def draw_ring(canvas: Canvas, rect: pygame.Rect, progress: float, *, scale: float,
              name: str) -> None:
    """The ring while a reading is worked out: ``progress`` (0..1) of it drawn in ACCENT."""
    side = min(rect.width, rect.height) - 4
    ring = pygame.Rect(0, 0, side, side)
    ring.center = rect.center
    width = max(3, round(4 * scale), side // 8)
    pygame.draw.circle(canvas.surface, mix(CARD, TEXT_DIM, 0.35), ring.center, side // 2, width)
    share = max(0.04, min(1.0, progress))
    start = math.pi / 2 - 2 * math.pi * share
    pygame.draw.arc(canvas.surface, ACCENT, ring, start, math.pi / 2, width)
    canvas.note("ring", name, ring)


def percent_label(p: float) -> str:
    """A probability as the chart labels it ("72 %"), from the analysis' own rounding."""
    return f"{percent(p)} %"


__all__ = ["LINE_PX", "MARK_GAP", "Line", "draw_chart", "draw_ring", "label_spot",
           "line_width", "percent_label", "place_marks", "plot_area", "point", "spread"]
