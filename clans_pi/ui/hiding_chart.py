"""The chart of how sure the table was of a player's clan, move by move, drawn
from the numbers of :mod:`clans_pi.history.hiding` (the same ones ``clans-pi history
--analysis`` prints): each line in its clan's colour over a darker edge, at least 3 px wide
(readable at 800x480 from a chair), ending in the clan's hut with its mark (not colour
alone); the blind guess as a faint dashed line; give-aways as numbered or plain markers;
the move shown as a vertical line. And the ring shown while the reading is worked out."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from ..history.hiding import percent
from .canvas import Canvas
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


def plot_area(rect: pygame.Rect, icon: int) -> pygame.Rect:
    """Where the lines go inside ``rect``: room at the right for the clans' huts."""
    return pygame.Rect(rect.left + 2, rect.top + icon // 2, rect.width - icon - 6,
                       rect.height - icon)


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
               background: Color = BG) -> pygame.Rect:
    """Draw ``lines`` (moves 0..``total``) in ``rect``; ``markers`` are (move, probability,
    label: "" a plain dot); ``current`` the move shown. Returns the plotting area."""
    width = line_width(scale)
    icon = min(max(14, round(rect.height * 0.28)), round(30 * scale), rect.width // 4)
    pygame.draw.rect(canvas.surface, background, rect, border_radius=6)
    area = plot_area(rect, icon)
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
    for line in lines:
        pts = [point(area, total, k, p) for k, p in enumerate(line.values)]
        if len(pts) > 1:
            pygame.draw.lines(canvas.surface, look.ink(line.clan), False, pts, width + 2)
            pygame.draw.lines(canvas.surface, look.color(line.clan), False, pts, width)
        end = pts[-1]
        canvas.surface.blit(hut_icon(line.clan, icon, look=look),
                            (end[0] + 3, end[1] - icon // 2))
        if current is not None and current < len(pts):
            x, y = pts[current]
            r = width + 2
            pygame.draw.circle(canvas.surface, look.ink(line.clan), (x, y), r + 2)
            pygame.draw.circle(canvas.surface, look.color(line.clan), (x, y), r)
    for k, p, label in markers:
        x, y = point(area, total, k, p)
        r = max(width + 3, round(7 * scale)) if label else width + 2
        pygame.draw.circle(canvas.surface, BG, (x, y), r + 2)
        pygame.draw.circle(canvas.surface, ACCENT, (x, y), r)
        if label:
            box = pygame.Rect(x - r, y - r, 2 * r, 2 * r)
            canvas.text(label, box, round(r * 1.5), BG, min_px=max(6, round(r * 1.2)))
        canvas.note("marker", f"{name}:{k}", pygame.Rect(x - r, y - r, 2 * r, 2 * r))
    return area


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


__all__ = ["LINE_PX", "Line", "draw_chart", "draw_ring", "line_width",
           "percent_label", "plot_area", "point"]
