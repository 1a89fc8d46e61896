"""Small pictures: a clan's hut with its count, a village chip, an eye, an arrow.

Icons are drawn once per size and cached, so the board redraw is a handful of blits.
"""

from __future__ import annotations

import functools
import math

import pygame

from .canvas import numeral
from .clan_look import DEFAULT_LOOK, ClanLook
from .clan_marks import mark_period, masked_mark
from .theme import TEXT, Color


def hut_points(rect: pygame.Rect) -> list[tuple[float, float]]:
    """A hut outline (walls and a pointed roof) filling ``rect``."""
    x, y, w, h = rect
    eave = y + h * 0.42
    return [
        (x + w * 0.5, y),
        (x + w, eave),
        (x + w * 0.88, eave),
        (x + w * 0.88, y + h),
        (x + w * 0.12, y + h),
        (x + w * 0.12, eave),
        (x, eave),
    ]


@functools.lru_cache(maxsize=512)
def hut_icon(clan: str, size: int, count: int = 0,
             look: ClanLook = DEFAULT_LOOK) -> pygame.Surface:
    """A hut of ``clan`` ``size`` px square, as ``look`` shows it (its colour and, when on,
    its mark), with ``count`` written on it when above 1."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    body = pygame.Rect(0, 0, size, size).inflate(-2, -2)
    pts = hut_points(body)
    fill, ink = look.color(clan), look.ink(clan)
    pygame.draw.polygon(surf, fill, pts)
    if look.marks:
        mask = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.polygon(mask, (255, 255, 255), pts)
        surf.blit(masked_mark(clan, mask, look.mark_color(clan), mark_period(size)), (0, 0))
    pygame.draw.polygon(surf, look.outline(clan), pts, max(1, size // 14))
    if count > 1:
        label = str(count)
        box_w = round(size * 0.74)
        text = numeral(label, round(size * 0.62), ink, width=box_w, min_px=8)
        center = (size // 2, round(size * 0.66))
        r = text.get_rect(center=center)
        if look.marks:  # a plate of the plain colour keeps the number clear of the mark
            ink_box = text.get_bounding_rect().move(r.topleft)
            pygame.draw.rect(surf, fill, ink_box.inflate(2 + size // 12, 2 + size // 12),
                             border_radius=max(1, size // 10))
        surf.blit(text, r)
    return surf


@functools.lru_cache(maxsize=64)
def digits_px(ink_height: int) -> int:
    """The size at which the bundled font's digits are at least ``ink_height`` pixels
    high as drawn (its hinting makes the height grow in steps, so it is measured)."""
    px = max(8, ink_height)
    while numeral("8", px, (255, 255, 255)).get_bounding_rect().height < ink_height:
        px += 1
    return px


@functools.lru_cache(maxsize=512)
def count_badge(number: int, ink_height: int, fill: Color, ink: Color,
                ring: Color | None = None) -> pygame.Surface:
    """``number`` in digits ``ink_height`` pixels high on a solid rounded plate of
    ``fill`` (a hut count on the board, readable over any clan's stripes or dots), with a
    ``ring`` round it when given."""
    text = numeral(str(number), digits_px(ink_height), ink)
    ink_box = text.get_bounding_rect()
    pad = max(2, ink_height // 4)
    h = ink_box.height + 2 * pad
    ring_px = max(2, h // 8) if ring is not None else 0
    h += 2 * ring_px
    w = max(h, _pill_width(ink_box.width, ink_box.height, h, ring_px))
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    plate = surf.get_rect()
    pygame.draw.rect(surf, fill, plate, border_radius=h // 2)
    if ring is not None:
        pygame.draw.rect(surf, ring, plate, ring_px, border_radius=h // 2)
    surf.blit(text, (w // 2 - ink_box.centerx, h // 2 - ink_box.centery))
    return surf


def _pill_width(ink_w: int, ink_h: int, h: int, ring_px: int) -> int:
    """The least width of a pill ``h`` high (round ends of radius h/2, a ring ``ring_px``
    wide inside its edge) whose inside holds an ink box ``ink_w`` by ``ink_h`` centred in
    it with a pixel to spare: the box's corners must stay inside the round ends, not only
    its sides inside the straight part (two digits crossed the ring of a narrower one)."""
    inner = h / 2 - ring_px - 2  # the inside's radius, two pixels kept clear (drawn, the
    # ring's round ends come in a little further than the circle)
    half = ink_h / 2
    reach = math.sqrt(max(0.0, inner * inner - half * half))  # how far a corner may go
    return math.ceil(ink_w + h - 2 * reach)


@functools.lru_cache(maxsize=64)
def chip_icon(number: int, size: int, color: Color, ink: Color) -> pygame.Surface:
    """A round village chip with its number."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size // 2
    pygame.draw.circle(surf, (20, 20, 24), (c, c), c)
    pygame.draw.circle(surf, color, (c, c), c - max(1, size // 12))
    label = str(number)
    text = numeral(label, round(size * 0.7), ink, width=round(size * 0.8), min_px=8)
    surf.blit(text, text.get_rect(center=(c, c + 1)))
    return surf


def draw_eye(surface: pygame.Surface, rect: pygame.Rect, color: Color = TEXT,
             closed: bool = False) -> None:
    """An eye (the peek symbol), centred in ``rect``: open, or ``closed`` (hidden: the same
    eye struck through, as "hidden" is drawn everywhere; a lone lid with lashes read as a
    grin)."""
    w = rect.width * 0.8
    h = rect.height * 0.45
    cx, cy = rect.center
    top = [(cx - w / 2 + w * i / 16, cy - h / 2 * math.sin(math.pi * i / 16)) for i in range(17)]
    bottom = [(x, 2 * cy - y) for x, y in reversed(top)]
    width = max(2, rect.width // 16)
    pygame.draw.polygon(surface, color, top + bottom, width)
    pygame.draw.circle(surface, color, (round(cx), round(cy)), max(2, round(h * 0.36)))
    if closed:
        reach = min(w, rect.height) * 0.42
        pygame.draw.line(surface, color, (cx - reach, cy - reach), (cx + reach, cy + reach),
                         round(width * 1.5))


def draw_globe(surface: pygame.Surface, rect: pygame.Rect, color: Color = TEXT) -> None:
    """A globe (the language button's symbol), centred in ``rect``."""
    side = min(rect.width, rect.height) * 0.8
    r = pygame.Rect(0, 0, round(side), round(side))
    r.center = rect.center
    width = max(1, r.width // 14)
    pygame.draw.ellipse(surface, color, r, width)
    pygame.draw.ellipse(surface, color, r.inflate(-r.width // 2, 0), width)
    pygame.draw.line(surface, color, (r.left, r.centery), (r.right - 1, r.centery), width)
    for dy in (-r.height // 4, r.height // 4):
        inset = round(r.width * 0.07)
        pygame.draw.line(surface, color, (r.left + inset, r.centery + dy),
                         (r.right - 1 - inset, r.centery + dy), width)


def draw_power(surface: pygame.Surface, rect: pygame.Rect, color: Color = TEXT) -> None:
    """The power symbol (a ring open at the top, a bar through the gap), centred in
    ``rect``: the kiosk's Switch off button."""
    side = min(rect.width, rect.height) * 0.8
    r = pygame.Rect(0, 0, round(side), round(side))
    r.center = rect.center
    width = max(2, r.width // 9)
    ring = r.inflate(-r.width // 8, -r.height // 8)
    # pygame's arcs run anticlockwise from the right (radians): leave out the top.
    pygame.draw.arc(surface, color, ring, math.radians(120), math.radians(420), width)
    pygame.draw.line(surface, color, (r.centerx, r.top), (r.centerx, r.centery), width)


def draw_wifi(surface: pygame.Surface, rect: pygame.Rect, color: Color = TEXT) -> None:
    """The Wi-Fi symbol (a dot under three arcs), centred in ``rect``: the start screen's
    Wi-Fi for phones button."""
    side = min(rect.width, rect.height) * 0.8
    width = max(2, round(side / 10))
    cx, bottom = rect.centerx, rect.centery + side * 0.36
    pygame.draw.circle(surface, color, (cx, round(bottom - width)), max(2, round(width * 1.1)))
    for k in (1, 2, 3):
        radius = side * 0.27 * k
        ring = pygame.Rect(0, 0, round(2 * radius), round(2 * radius))
        ring.center = (cx, round(bottom - width))
        pygame.draw.arc(surface, color, ring, math.radians(45), math.radians(135), width)


def draw_past(surface: pygame.Surface, rect: pygame.Rect, color: Color = TEXT) -> None:
    """A clock with an arrow turning back round it (the past games), centred in ``rect``."""
    side = min(rect.width, rect.height) * 0.8
    r = pygame.Rect(0, 0, round(side), round(side))
    r.center = rect.center
    width = max(2, round(side / 11))
    # pygame's arcs run anticlockwise from the right (radians): open at the upper left,
    # where the arrow's head points back.
    pygame.draw.arc(surface, color, r, math.radians(-210), math.radians(120), width)
    tip = (r.centerx + math.cos(math.radians(150)) * r.width / 2,
           r.centery - math.sin(math.radians(150)) * r.height / 2)
    head = side * 0.22
    pygame.draw.polygon(surface, color, [(tip[0] - head * 0.7, tip[1] - head * 0.2),
                                         (tip[0] + head * 0.5, tip[1] - head * 0.5),
                                         (tip[0] + head * 0.1, tip[1] + head * 0.6)])
    c = r.center
    pygame.draw.line(surface, color, c, (c[0], c[1] - side * 0.3), width)
    pygame.draw.line(surface, color, c, (c[0] + side * 0.22, c[1] + side * 0.1), width)


def draw_bin(surface: pygame.Surface, rect: pygame.Rect, color: Color = TEXT) -> None:
    """A waste bin (delete), centred in ``rect``."""
    side = min(rect.width, rect.height) * 0.75
    r = pygame.Rect(0, 0, round(side * 0.7), round(side))
    r.center = rect.center
    width = max(2, round(side / 12))
    lid = r.top + round(side * 0.2)
    pygame.draw.line(surface, color, (r.left - side * 0.08, lid), (r.right + side * 0.08, lid),
                     width)
    handle = pygame.Rect(0, 0, round(side * 0.3), round(side * 0.14))
    handle.midbottom = (r.centerx, lid)
    pygame.draw.rect(surface, color, handle, width)
    body = [(r.left + side * 0.04, lid + width), (r.right - side * 0.04, lid + width),
            (r.right - side * 0.1, r.bottom), (r.left + side * 0.1, r.bottom)]
    pygame.draw.polygon(surface, color, body, width)
    for k in (-1, 0, 1):
        x = r.centerx + k * side * 0.16
        pygame.draw.line(surface, color, (x, lid + side * 0.18), (x, r.bottom - side * 0.14),
                         max(1, width - 1))


def draw_arrow(surface: pygame.Surface, start: tuple[float, float], end: tuple[float, float],
               color: Color, width: int, *, outline: Color | None = (20, 20, 24)) -> None:
    """A straight arrow from ``start`` to ``end`` with a filled head."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    ux, uy = dx / length, dy / length
    head = min(length * 0.6, width * 3.2)
    base = (end[0] - ux * head, end[1] - uy * head)
    left = (base[0] - uy * head * 0.6, base[1] + ux * head * 0.6)
    right = (base[0] + uy * head * 0.6, base[1] - ux * head * 0.6)
    if outline is not None:
        pygame.draw.line(surface, outline, start, base, width + 4)
        pygame.draw.polygon(surface, outline, [end, left, right], 3)
    pygame.draw.line(surface, color, start, base, width)
    pygame.draw.polygon(surface, color, [end, left, right])


def draw_crown(surface: pygame.Surface, rect: pygame.Rect, color: Color) -> None:
    """A small crown (the winner's mark), fitted in ``rect``."""
    x, y, w, h = rect
    pts = [(x, y + h), (x, y + h * 0.25), (x + w * 0.28, y + h * 0.6), (x + w * 0.5, y),
           (x + w * 0.72, y + h * 0.6), (x + w, y + h * 0.25), (x + w, y + h)]
    pygame.draw.polygon(surface, color, pts)
    pygame.draw.polygon(surface, (20, 20, 24), pts, max(1, w // 12))


def draw_spinner(surface: pygame.Surface, rect: pygame.Rect, frame: int, color: Color) -> None:
    """A ring of eight dots, the ``frame``-th brightest (a computer player thinking)."""
    side = min(rect.width, rect.height)
    cx, cy = rect.center
    ring = side * 0.32
    dot = max(2, round(side * 0.07))
    for k in range(8):
        age = (frame - k) % 8  # 0: the newest dot
        a = math.pi * 2 * k / 8 - math.pi / 2
        shade = max(0.25, 1 - age * 0.16)
        ink = (round(color[0] * shade), round(color[1] * shade), round(color[2] * shade))
        pygame.draw.circle(surface, ink, (round(cx + ring * math.cos(a)),
                                          round(cy + ring * math.sin(a))),
                           dot + (1 if age == 0 else 0))


def draw_play(surface: pygame.Surface, rect: pygame.Rect, color: Color = TEXT) -> None:
    """A triangle pointing right (play), centred in ``rect``."""
    side = min(rect.width, rect.height) * 0.7
    cx, cy = rect.center
    pygame.draw.polygon(surface, color, [(cx - side * 0.38, cy - side / 2),
                                         (cx + side * 0.5, cy),
                                         (cx - side * 0.38, cy + side / 2)])


def draw_pause(surface: pygame.Surface, rect: pygame.Rect, color: Color = TEXT) -> None:
    """Two upright bars (pause), centred in ``rect``."""
    side = min(rect.width, rect.height) * 0.64
    bar = round(side * 0.32)
    top = round(rect.centery - side / 2)
    for x in (rect.centerx - round(side * 0.4), rect.centerx + round(side * 0.4) - bar):
        pygame.draw.rect(surface, color, (x, top, bar, round(side)), border_radius=2)


def draw_step(surface: pygame.Surface, rect: pygame.Rect, color: Color = TEXT, *,
              forward: bool = True, double: bool = False) -> None:
    """A step: one triangle against a bar (a move: ▶|), or ``double`` two (an epoch:
    ▶▶|), pointing forward (right) or back (left: mirrored), centred in ``rect``."""
    side = min(rect.width, rect.height) * 0.62
    heads = 2 if double else 1
    bar = max(2, round(side * 0.14))
    tri = side * (0.5 if double else 0.72)  # each triangle's length
    width = heads * tri + bar
    cx, cy = rect.center
    half = side / 2
    sign = 1 if forward else -1

    def x(offset: float) -> float:  # from the trailing end (left when forward)
        return cx + sign * (offset - width / 2)

    for k in range(heads):
        base = k * tri
        pygame.draw.polygon(surface, color, [(x(base), cy - half), (x(base + tri), cy),
                                             (x(base), cy + half)])
    ends = sorted((x(width - bar), x(width)))
    pygame.draw.rect(surface, color, (round(ends[0]), round(cy - half), bar, round(side)))
