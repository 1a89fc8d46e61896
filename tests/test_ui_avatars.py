"""The seat avatars: twelve distinct animal badges, round, inside their rect, no clan colours."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pygame
import pytest

from clans_pi.ui.avatars import AVATARS, Avatar, avatar, avatar_surface, draw_avatar

KEYS = [a.key for a in AVATARS]
RGBA = tuple[int, int, int, int]

# The clan colours as players see them; an avatar must not be mistaken for any of them.
CLAN_RGB = {
    "red": (200, 40, 40),
    "blue": (40, 80, 200),
    "green": (40, 150, 60),
    "yellow": (230, 200, 40),
    "black": (30, 30, 30),
}
# Euclidean RGB distance. The closest two clan colours (green, black) are 124 apart, so a
# colour 70 or more from each of them is nearer no clan colour than halfway to another one.
FUR_MIN_DISTANCE = 70
# The badge background fills most of the badge: it must be clearly farther from them.
BADGE_MIN_DISTANCE = 100


def pixels(surface: pygame.Surface) -> list[RGBA]:
    data = pygame.image.tobytes(surface, "RGBA")
    return list(zip(data[0::4], data[1::4], data[2::4], data[3::4], strict=True))


def opaque_colors(key: str, size: int = 64) -> Counter[tuple[int, int, int]]:
    return Counter((r, g, b) for r, g, b, a in pixels(avatar_surface(key, size)) if a == 255)


def clan_distance(rgb: tuple[int, int, int]) -> float:
    return min(math.dist(rgb, clan) for clan in CLAN_RGB.values())


def test_twelve_avatars_with_unique_lowercase_keys_and_short_unique_names() -> None:
    assert len(AVATARS) == 12
    assert len(set(KEYS)) == 12
    for a in AVATARS:
        assert isinstance(a, Avatar)
        assert a.key.isascii() and a.key.isalpha() and a.key == a.key.lower(), a.key
        assert 1 <= len(a.name) <= 8, a.name
    assert len({a.name.lower() for a in AVATARS}) == 12


def test_lookup_by_key() -> None:
    for a in AVATARS:
        assert avatar(a.key) is a
    with pytest.raises(KeyError):
        avatar("nope")
    with pytest.raises(KeyError):
        avatar_surface("nope", 32)
    with pytest.raises(KeyError):
        draw_avatar(pygame.Surface((40, 40)), pygame.Rect(0, 0, 40, 40), "nope")


@pytest.mark.parametrize("size", [24, 48, 160])
def test_round_badge_filled_inside_and_transparent_outside(size: int) -> None:
    c = (size - 1) / 2
    for key in KEYS:
        surf = avatar_surface(key, size)
        assert surf.get_size() == (size, size)
        assert surf.get_flags() & pygame.SRCALPHA
        assert avatar_surface(key, size) is surf, "not cached"
        px = pixels(surf)
        for corner in ((0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)):
            assert surf.get_at(corner).a == 0, (key, size, corner)
        inside = outside = 0
        middle: list[tuple[int, int, int]] = []  # inside the badge's ring
        for i, (r, g, b, a) in enumerate(px):
            d = math.hypot(i % size - c, i // size - c)
            if d > size / 2 + 0.5:
                assert a == 0, (key, size, i)
                outside += 1
            elif d < size / 2 - 1.5:
                assert a == 255, (key, size, i)
                inside += 1
            if d < 0.85 * size / 2:
                middle.append((r, g, b))
        assert inside > 0.7 * math.pi * (size / 2) ** 2
        assert outside > 0
        # Not a plain disc: a good part of the middle is a face, clearly off the badge colour.
        # Measured: at least 43% at every size.
        (badge, _), *_ = Counter(middle).most_common(1)
        face = sum(math.dist(rgb, badge) > 40 for rgb in middle)
        assert face >= 0.25 * len(middle), (key, size, face / len(middle))


def test_draw_avatar_stays_inside_rect_and_restores_clip() -> None:
    sentinel = (1, 2, 3, 255)
    rects = [
        pygame.Rect(20, 30, 100, 60),  # wide: a 60 px badge in the middle
        pygame.Rect(150, 10, 40, 120),  # tall
        pygame.Rect(170, 110, 80, 80),  # hangs off the bottom right
        pygame.Rect(-30, -20, 70, 70),  # hangs off the top left
        pygame.Rect(5, 5, 24, 24),
    ]
    for key, rect in zip(itertools.cycle(KEYS), rects, strict=False):
        surf = pygame.Surface((200, 150))
        surf.fill(sentinel)
        clip = pygame.Rect(0, 0, 200, 150)
        surf.set_clip(clip)
        draw_avatar(surf, rect, key)
        assert surf.get_clip() == clip
        changed = [i for i, p in enumerate(pixels(surf)) if p != sentinel]
        assert changed, (key, rect)
        for i in changed:
            assert rect.collidepoint(i % 200, i // 200), (key, rect, (i % 200, i // 200))
    # Centred in the rect: the wide rect's badge is a 60 px disc round its centre.
    surf = pygame.Surface((200, 150))
    surf.fill(sentinel)
    draw_avatar(surf, rects[0], "fox")
    assert surf.get_at((69, 59)) != sentinel
    assert surf.get_at((22, 59)) == sentinel  # left of the badge, still inside the rect


def test_draw_avatar_respects_an_existing_clip() -> None:
    sentinel = (1, 2, 3, 255)
    surf = pygame.Surface((100, 100))
    surf.fill(sentinel)
    clip = pygame.Rect(0, 0, 50, 100)
    surf.set_clip(clip)
    draw_avatar(surf, pygame.Rect(0, 0, 100, 100), "owl")
    assert surf.get_clip() == clip
    px = pixels(surf)
    assert all(px[y * 100 + x] == sentinel for x in range(50, 100) for y in range(100))
    assert surf.get_at((45, 50)) != sentinel


def test_every_pair_of_avatars_differs_clearly() -> None:
    drawn = {key: pixels(avatar_surface(key, 64)) for key in KEYS}
    for a, b in itertools.combinations(KEYS, 2):
        differ = sum(math.dist(p, q) > 40 for p, q in zip(drawn[a], drawn[b], strict=True))
        # Measured: the closest pair differs in about 30% of its pixels.
        assert differ / len(drawn[a]) >= 0.2, (a, b, differ)


def test_no_avatar_looks_like_a_clan_colour() -> None:
    for key in KEYS:
        colors = opaque_colors(key)
        total = sum(colors.values())
        (badge, _), *_ = colors.most_common(1)
        assert clan_distance(badge) >= BADGE_MIN_DISTANCE, (key, badge)
        for rgb, count in colors.most_common(4):
            if count >= 0.1 * total:
                assert clan_distance(rgb) >= FUR_MIN_DISTANCE, (key, rgb)
