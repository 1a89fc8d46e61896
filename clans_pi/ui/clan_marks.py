"""Each clan's mark drawn with pygame: a pattern over its colour, so a clan can be told from
the others without seeing colour (colour-blind players, a dim room).

Which clan has which mark is :data:`clans_pi.palette.MARKS`, the one source that the Pico
handheld's display (firmware/handheld.py ``pattern_ops``) and the phones' page
(``clans_pi/phones/page/phone.css``) follow too. So one clan looks alike on every device.
"""

from __future__ import annotations

import pygame

from ..palette import MARKS, Color


def mark_period(size: int) -> int:
    """The pattern's repeat in pixels for a shape ``size`` pixels across: four or five
    repeats across a hut, never finer than 4 px (a 2 px line and a 2 px gap)."""
    return max(4, round(size / 4.5))


def draw_mark(surface: pygame.Surface, clan: str, rect: pygame.Rect, color: Color,
              period: int) -> None:
    """Draw ``clan``'s pattern in ``color`` over ``rect`` of ``surface`` (clipped to it),
    repeating every ``period`` pixels from the rect's top left corner."""
    kind = MARKS[clan]
    old_clip = surface.get_clip()
    surface.set_clip(rect.clip(old_clip) if old_clip else rect)
    x0, y0, w, h = rect
    line = max(1, round(period * 0.45))
    try:
        if kind == "horizontal":
            for y in range(y0 + period // 4, y0 + h, period):
                surface.fill(color, (x0, y, w, line))
        elif kind == "vertical":
            for x in range(x0 + period // 4, x0 + w, period):
                surface.fill(color, (x, y0, line, h))
        elif kind == "diagonal":
            # Lines going down-left, like the handheld's; a little wider to read as stripes.
            step = round(period * 1.25)
            width = max(1, round(line * 1.1))
            for k in range(0, w + h + step, step):
                pygame.draw.line(surface, color, (x0 + k, y0 - 1), (x0 + k - h - 2, y0 + h + 1),
                                 width)
        elif kind == "dots":
            dot = max(2, round(period * 0.5))
            for j, y in enumerate(range(y0 + (period - dot) // 2, y0 + h, period)):
                shift = period // 2 if j % 2 else 0
                for x in range(x0 + (period - dot) // 2 + shift - period, x0 + w, period):
                    surface.fill(color, (x, y, dot, dot))
        else:  # checks
            cell = max(2, round(period * 0.75))
            for j, y in enumerate(range(y0, y0 + h, cell)):
                for x in range(x0 + (j % 2) * cell, x0 + w, 2 * cell):
                    surface.fill(color, (x, y, cell, cell))
    finally:
        surface.set_clip(old_clip)


def masked_mark(clan: str, mask: pygame.Surface, color: Color, period: int) -> pygame.Surface:
    """``clan``'s pattern on a transparent surface the size of ``mask``, only where ``mask``
    is opaque (a hut's outline, say)."""
    size = mask.get_size()
    pattern = pygame.Surface(size, pygame.SRCALPHA)
    draw_mark(pattern, clan, pygame.Rect((0, 0), size), color, period)
    pattern.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    return pattern
