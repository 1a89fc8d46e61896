"""Twelve animal avatars for the seats: round badges drawn with pygame.draw, no image files.

Each badge is drawn at 4x in coordinates relative to its radius (centre 0,0, edge at 1) and
smoothscaled down, so it reads the same from 24 px to 160 px. Badge and fur colours are soft
neutrals and pastels, never a clan colour (red, blue, green, yellow, black): an avatar belongs
to a player and must not hint at a clan.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from ..i18n import N_, _

Color = tuple[int, int, int]
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Avatar:
    key: str  # lowercase ascii id, e.g. "fox"
    name: str  # default display name in English, e.g. "Fox" (see :attr:`label`)

    @property
    def label(self) -> str:
        """The name in the language in use ("Fuchs"): a seat's default name."""
        return _(self.name)


AVATARS: tuple[Avatar, ...] = (
    Avatar("fox", N_("Fox")),
    Avatar("owl", N_("Owl")),
    Avatar("bear", N_("Bear")),
    Avatar("hare", N_("Hare")),
    Avatar("pig", N_("Pig")),
    Avatar("cat", N_("Cat")),
    Avatar("wolf", N_("Wolf")),
    Avatar("deer", N_("Deer")),
    Avatar("duck", N_("Duck")),
    Avatar("otter", N_("Otter")),
    Avatar("hedgehog", N_("Hedgehog")),
    Avatar("mouse", N_("Mouse")),
)

_BY_KEY: dict[str, Avatar] = {a.key: a for a in AVATARS}


def is_avatar(key: str) -> bool:
    """Whether ``key`` names one of the pictures."""
    return key in _BY_KEY


def avatar(key: str) -> Avatar:
    """The avatar with this key; KeyError for an unknown one."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"unknown avatar {key!r}") from None


# Shared ink.
EYE: Color = (52, 40, 36)  # dark brown, not black
NOSE: Color = (70, 50, 44)
SHINE: Color = (255, 255, 255)
PINK: Color = (236, 170, 178)
CREAM: Color = (244, 232, 214)


class _Pen:
    """Draws in badge coordinates: (0, 0) is the centre, 1 is the badge radius, y points down."""

    def __init__(self, surface: pygame.Surface, size: int) -> None:
        self.surface = surface
        self.c = size / 2
        self.r = size / 2

    def pt(self, x: float, y: float) -> tuple[int, int]:
        return round(self.c + x * self.r), round(self.c + y * self.r)

    def px(self, length: float) -> int:
        return max(1, round(length * self.r))

    def circle(self, color: Color, x: float, y: float, rad: float) -> None:
        pygame.draw.circle(self.surface, color, self.pt(x, y), self.px(rad))

    def oval(
        self, color: Color, x: float, y: float, rx: float, ry: float, angle: float = 0.0
    ) -> None:
        """An ellipse centred at (x, y), turned clockwise by ``angle`` degrees."""
        a = math.radians(angle)
        ca, sa = math.cos(a), math.sin(a)
        pts = []
        for i in range(48):
            t = 2 * math.pi * i / 48
            ex, ey = rx * math.cos(t), ry * math.sin(t)
            pts.append((x + ex * ca - ey * sa, y + ex * sa + ey * ca))
        self.poly(color, pts)

    def poly(self, color: Color, pts: Sequence[Point]) -> None:
        pygame.draw.polygon(self.surface, color, [self.pt(x, y) for x, y in pts])

    def stroke(self, color: Color, pts: Sequence[Point], width: float) -> None:
        """A polyline with round joints and ends."""
        w = self.px(width)
        ipts = [self.pt(x, y) for x, y in pts]
        for a, b in itertools.pairwise(ipts):
            pygame.draw.line(self.surface, color, a, b, w)
        if w > 2:
            for p in ipts:
                pygame.draw.circle(self.surface, color, p, w // 2)

    def arc(
        self,
        color: Color,
        x: float,
        y: float,
        rx: float,
        ry: float,
        start: float,
        end: float,
        width: float,
    ) -> None:
        """Part of an ellipse outline from ``start`` to ``end`` degrees (0 = right, 90 = down)."""
        n = 16
        pts = [
            (
                x + rx * math.cos(math.radians(start + (end - start) * i / n)),
                y + ry * math.sin(math.radians(start + (end - start) * i / n)),
            )
            for i in range(n + 1)
        ]
        self.stroke(color, pts, width)

    def eye(self, x: float, y: float, rad: float, color: Color = EYE) -> None:
        self.circle(color, x, y, rad)
        self.circle(SHINE, x - rad * 0.3, y - rad * 0.35, rad * 0.38)

    def eyes(self, dx: float, y: float, rad: float) -> None:
        self.eye(-dx, y, rad)
        self.eye(dx, y, rad)

    def whiskers(self, color: Color, x: float, y: float, length: float, width: float) -> None:
        for side in (-1, 1):
            for dy in (-0.07, 0.0, 0.07):
                self.stroke(
                    color,
                    [(side * x, y + dy * 0.5), (side * (x + length), y + dy * 1.6)],
                    width,
                )


def _mirror(pts: Sequence[Point]) -> list[Point]:
    return [(-x, y) for x, y in pts]


def _fox(p: _Pen) -> None:
    fur, dark = (226, 126, 58), (120, 64, 40)
    ear = [(-0.66, -0.05), (-0.56, -0.8), (-0.12, -0.42)]
    inner = [(-0.54, -0.17), (-0.5, -0.62), (-0.26, -0.42)]
    for pts in (ear, _mirror(ear)):
        p.poly(fur, pts)
    for pts in (inner, _mirror(inner)):
        p.poly(dark, pts)
    p.oval(fur, 0, -0.05, 0.6, 0.45)
    p.poly(fur, [(-0.66, 0.0), (0.66, 0.0), (0.0, 0.68)])
    p.poly(CREAM, [(-0.68, 0.02), (-0.2, 0.14), (0.0, 0.3), (0.2, 0.14), (0.68, 0.02), (0, 0.7)])
    p.oval(NOSE, 0, 0.6, 0.1, 0.075)
    p.eyes(0.24, -0.06, 0.075)


def _owl(p: _Pen) -> None:
    body, light, beak = (150, 108, 78), (232, 210, 178), (214, 138, 62)
    tuft = [(-0.6, -0.3), (-0.52, -0.82), (-0.18, -0.5)]
    for pts in (tuft, _mirror(tuft)):
        p.poly(body, pts)
    p.oval(body, 0, 0.22, 0.62, 0.74)
    p.oval((206, 176, 140), 0, 0.78, 0.4, 0.32)
    for x, y in ((-0.14, 0.62), (0.14, 0.62), (-0.26, 0.76), (0.0, 0.76), (0.26, 0.76)):
        p.circle(body, x, y, 0.035)
    for x in (-0.26, 0.26):
        p.circle(light, x, -0.08, 0.3)
        p.circle((236, 150, 70), x, -0.08, 0.18)
        p.eye(x, -0.08, 0.1)
    p.poly(beak, [(-0.08, 0.14), (0.08, 0.14), (0.0, 0.34)])


def _bear(p: _Pen) -> None:
    fur, muzzle, inner = (140, 94, 62), (214, 180, 140), (186, 136, 100)
    for x in (-0.46, 0.46):
        p.circle(fur, x, -0.42, 0.23)
        p.circle(inner, x, -0.42, 0.12)
    p.circle(fur, 0, 0.1, 0.62)
    p.oval(muzzle, 0, 0.32, 0.3, 0.23)
    p.oval(NOSE, 0, 0.22, 0.12, 0.08)
    p.stroke(NOSE, [(0, 0.26), (0, 0.4)], 0.035)
    p.arc(NOSE, -0.07, 0.38, 0.07, 0.05, 0, 150, 0.03)
    p.arc(NOSE, 0.07, 0.38, 0.07, 0.05, 30, 180, 0.03)
    p.eyes(0.24, -0.04, 0.07)


def _hare(p: _Pen) -> None:
    fur = (176, 150, 126)
    for side in (-1, 1):
        p.oval(fur, side * 0.22, -0.5, 0.14, 0.42, side * 12)
        p.oval(PINK, side * 0.22, -0.48, 0.07, 0.32, side * 12)
    p.oval(fur, 0, 0.28, 0.52, 0.46)
    p.circle(CREAM, -0.1, 0.44, 0.13)
    p.circle(CREAM, 0.1, 0.44, 0.13)
    p.poly((214, 120, 134), [(-0.07, 0.3), (0.07, 0.3), (0.0, 0.38)])
    p.whiskers((110, 92, 80), 0.2, 0.42, 0.5, 0.02)
    p.eyes(0.22, 0.16, 0.07)


def _pig(p: _Pen) -> None:
    skin, dark, hole = (244, 186, 190), (228, 146, 158), (150, 84, 96)
    ear = [(-0.6, -0.18), (-0.56, -0.76), (-0.16, -0.5)]
    for pts in (ear, _mirror(ear)):
        p.poly(dark, pts)
    p.circle(skin, 0, 0.1, 0.62)
    p.oval(dark, 0, 0.3, 0.27, 0.18)
    p.oval(hole, -0.09, 0.3, 0.05, 0.08)
    p.oval(hole, 0.09, 0.3, 0.05, 0.08)
    p.oval((250, 160, 170), -0.42, 0.22, 0.1, 0.06)
    p.oval((250, 160, 170), 0.42, 0.22, 0.1, 0.06)
    p.eyes(0.24, -0.08, 0.07)


def _cat(p: _Pen) -> None:
    fur, stripe, iris = (152, 152, 160), (96, 96, 106), (226, 186, 112)
    ear = [(-0.62, -0.08), (-0.56, -0.74), (-0.16, -0.44)]
    inner = [(-0.52, -0.2), (-0.5, -0.58), (-0.28, -0.42)]
    for pts in (ear, _mirror(ear)):
        p.poly(fur, pts)
    for pts in (inner, _mirror(inner)):
        p.poly(PINK, pts)
    p.oval(fur, 0, 0.14, 0.64, 0.52)
    for x in (-0.12, 0.0, 0.12):
        p.stroke(stripe, [(x, -0.36), (x * 0.8, -0.2)], 0.05)
    for x in (-0.25, 0.25):
        p.oval(iris, x, 0.04, 0.11, 0.09)
        p.oval(EYE, x, 0.04, 0.035, 0.085)
    p.poly(PINK, [(-0.07, 0.22), (0.07, 0.22), (0.0, 0.3)])
    p.arc(EYE, -0.06, 0.32, 0.06, 0.05, 0, 160, 0.025)
    p.arc(EYE, 0.06, 0.32, 0.06, 0.05, 20, 180, 0.025)
    p.whiskers(stripe, 0.26, 0.3, 0.5, 0.02)


def _wolf(p: _Pen) -> None:
    fur, light, inner = (120, 126, 138), (236, 236, 232), (200, 196, 192)
    ear = [(-0.58, -0.12), (-0.46, -0.82), (-0.14, -0.44)]
    ear_in = [(-0.48, -0.22), (-0.44, -0.64), (-0.26, -0.42)]
    for pts in (ear, _mirror(ear)):
        p.poly(fur, pts)
    for pts in (ear_in, _mirror(ear_in)):
        p.poly(inner, pts)
    p.oval(fur, 0, 0.02, 0.56, 0.5)
    # Cheek ruff and a long pale muzzle.
    ruff = [(-0.56, 0.02), (-0.74, 0.34), (-0.44, 0.36), (-0.5, 0.56), (-0.16, 0.5), (0, 0.74)]
    p.poly(light, [*ruff, *reversed(_mirror(ruff))])
    p.poly(fur, [(-0.2, -0.42), (0.2, -0.42), (0.11, 0.2), (-0.11, 0.2)])
    p.oval(light, -0.26, -0.14, 0.09, 0.05, -20)
    p.oval(light, 0.26, -0.14, 0.09, 0.05, 20)
    p.oval(NOSE, 0, 0.3, 0.12, 0.08)
    p.stroke(NOSE, [(0, 0.32), (0, 0.46)], 0.03)
    p.eyes(0.25, -0.02, 0.065)


def _deer(p: _Pen) -> None:
    fur, antler, light = (186, 130, 86), (110, 78, 54), (242, 224, 200)
    for side in (-1, 1):
        s = float(side)
        p.stroke(antler, [(s * 0.16, -0.38), (s * 0.3, -0.66), (s * 0.34, -0.86)], 0.07)
        p.stroke(antler, [(s * 0.27, -0.6), (s * 0.48, -0.72)], 0.06)
        p.stroke(antler, [(s * 0.32, -0.76), (s * 0.16, -0.86)], 0.05)
        p.oval(fur, s * 0.5, -0.24, 0.26, 0.12, s * 25)
        p.oval(light, s * 0.52, -0.25, 0.16, 0.06, s * 25)
    p.oval(fur, 0, 0.12, 0.42, 0.54)
    p.oval(light, 0, 0.46, 0.24, 0.2)
    p.circle(light, -0.1, -0.24, 0.04)
    p.circle(light, 0.08, -0.3, 0.035)
    p.oval(NOSE, 0, 0.4, 0.11, 0.075)
    p.eyes(0.2, 0.04, 0.075)


def _duck(p: _Pen) -> None:
    white, bill, line = (248, 246, 240), (240, 150, 62), (196, 110, 46)
    p.oval(white, 0.02, -0.6, 0.07, 0.12, 25)
    p.oval(white, -0.08, -0.58, 0.06, 0.1, -15)
    p.circle(white, 0, 0.08, 0.6)
    p.oval(bill, 0, 0.32, 0.34, 0.15)
    p.stroke(line, [(-0.3, 0.33), (0.3, 0.33)], 0.025)
    p.circle(line, -0.08, 0.26, 0.025)
    p.circle(line, 0.08, 0.26, 0.025)
    p.oval((244, 196, 200), -0.4, 0.14, 0.09, 0.055)
    p.oval((244, 196, 200), 0.4, 0.14, 0.09, 0.055)
    p.eyes(0.24, -0.06, 0.08)


def _otter(p: _Pen) -> None:
    fur, light, dark = (128, 90, 64), (234, 214, 188), (92, 64, 46)
    for x in (-0.56, 0.56):
        p.circle(fur, x, -0.22, 0.13)
        p.circle(dark, x, -0.22, 0.07)
    p.oval(fur, 0, 0.1, 0.64, 0.52)
    p.oval(light, 0, 0.46, 0.32, 0.2)
    p.oval(light, -0.14, 0.3, 0.19, 0.15)
    p.oval(light, 0.14, 0.3, 0.19, 0.15)
    p.oval(NOSE, 0, 0.2, 0.13, 0.08)
    p.whiskers(light, 0.3, 0.32, 0.4, 0.02)
    p.eyes(0.26, -0.06, 0.075)


def _hedgehog(p: _Pen) -> None:
    spine, tip, face = (108, 80, 60), (156, 120, 90), (236, 208, 172)
    # Two fans of spikes round the head, the lighter one set between the darker one's points.
    for color, long, short, turn in ((spine, 0.86, 0.56, 0.0), (tip, 0.68, 0.44, 0.5)):
        pts: list[Point] = []
        for i in range(23):
            a = math.radians(135 + 270 * (i + turn) / 22)
            rad = long if i % 2 == 0 else short
            pts.append((rad * math.cos(a), 0.12 + rad * math.sin(a)))
        pts.append((0.0, 0.3))
        p.poly(color, pts)
    for x in (-0.36, 0.36):
        p.circle(face, x, 0.02, 0.11)
        p.circle(PINK, x, 0.02, 0.06)
    p.poly(
        face,
        [(-0.4, 0.16), (-0.3, -0.08), (0.0, -0.16), (0.3, -0.08), (0.4, 0.16), (0.0, 0.66)],
    )
    p.circle(face, 0, 0.14, 0.35)
    p.circle(NOSE, 0, 0.6, 0.085)
    p.eyes(0.16, 0.12, 0.065)


def _mouse(p: _Pen) -> None:
    fur = (168, 162, 170)
    for x in (-0.44, 0.44):
        p.circle(fur, x, -0.36, 0.32)
        p.circle(PINK, x, -0.36, 0.21)
    p.oval(fur, 0, 0.18, 0.46, 0.44)
    p.poly(fur, [(-0.4, 0.3), (0.4, 0.3), (0.0, 0.62)])
    p.circle((226, 140, 154), 0, 0.56, 0.075)
    p.whiskers((96, 90, 98), 0.14, 0.5, 0.5, 0.02)
    p.eyes(0.17, 0.16, 0.07)


# key -> (badge colour, drawing); the badge ring is the badge colour darkened.
_ART: dict[str, tuple[Color, Callable[[_Pen], None]]] = {
    "fox": ((205, 190, 230), _fox),  # lilac
    "owl": ((180, 214, 210), _owl),  # aqua grey
    "bear": ((228, 212, 178), _bear),  # sand
    "hare": ((198, 208, 224), _hare),  # mist
    "pig": ((188, 198, 228), _pig),  # periwinkle grey
    "cat": ((250, 212, 188), _cat),  # peach
    "wolf": ((244, 198, 156), _wolf),  # apricot
    "deer": ((218, 186, 196), _deer),  # rose grey
    "duck": ((196, 162, 192), _duck),  # mauve
    "otter": ((176, 200, 222), _otter),  # cornflower grey
    "hedgehog": ((160, 196, 196), _hedgehog),  # teal grey
    "mouse": ((226, 182, 162), _mouse),  # clay
}


_SUPERSAMPLE = 4
_MAX_DRAW = 1024  # largest side drawn before scaling down


@functools.lru_cache(maxsize=256)
def avatar_surface(key: str, size: int) -> pygame.Surface:
    """The badge as a ``size`` x ``size`` SRCALPHA surface, transparent outside its circle.

    The surface is cached and shared: blit it, do not draw on it (copy() it first).
    """
    avatar(key)
    if size < 1:
        raise ValueError(f"avatar size must be positive, got {size}")
    bg, art = _ART[key]
    ring = (bg[0] * 3 // 4, bg[1] * 3 // 4, bg[2] * 3 // 4)
    big = max(size, min(size * _SUPERSAMPLE, _MAX_DRAW))
    surf = pygame.Surface((big, big), pygame.SRCALPHA)
    surf.fill((*ring, 255))
    pen = _Pen(surf, big)
    pen.circle(bg, 0, 0, 1.0)
    art(pen)
    pygame.draw.circle(surf, ring, pen.pt(0, 0), pen.px(1.0), pen.px(0.07))
    # Cut the badge out: keep colour everywhere (no dark fringe when scaling), alpha only inside.
    mask = pygame.Surface((big, big), pygame.SRCALPHA)
    mask.fill((255, 255, 255, 0))
    pygame.draw.circle(mask, (255, 255, 255, 255), pen.pt(0, 0), big // 2)
    surf.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    if big != size:
        surf = pygame.transform.smoothscale(surf, (size, size))
    return surf


def draw_avatar(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    """Draw the badge centred in ``rect`` (a square of its shorter side), never outside it."""
    side = min(rect.w, rect.h)
    if side < 1:
        avatar(key)
        return
    image = avatar_surface(key, side)
    target = image.get_rect(center=rect.center)
    old_clip = surface.get_clip()
    surface.set_clip(rect.clip(old_clip))
    try:
        surface.blit(image, target)
    finally:
        surface.set_clip(old_clip)
