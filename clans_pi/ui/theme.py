"""Colours and sizes shared by every screen.

Clan colours are only ever used for huts, the score track and a peek; avatars and seat
badges use other colours, so no seat is ever drawn in a clan's colour (R22).
"""

from __future__ import annotations

from typing import Final

Color = tuple[int, int, int]

CLAN_COLORS: Final[dict[str, Color]] = {
    "red": (214, 48, 49),
    "blue": (38, 99, 221),
    "green": (46, 164, 79),
    "yellow": (245, 200, 35),
    "black": (34, 34, 38),
}
#: Outline and number colour on each clan's hut, chosen for contrast.
CLAN_INK: Final[dict[str, Color]] = {
    "red": (255, 255, 255),
    "blue": (255, 255, 255),
    "green": (255, 255, 255),
    "yellow": (30, 30, 30),
    "black": (255, 255, 255),
}
CLAN_LABEL: Final[dict[str, str]] = {
    "red": "Red",
    "blue": "Blue",
    "green": "Green",
    "yellow": "Yellow",
    "black": "Black",
}

TERRAIN_COLORS: Final[dict[str, Color]] = {
    "forest": (62, 112, 64),
    "mountain": (146, 138, 128),
    "steppe": (212, 184, 118),
    "grassland": (150, 194, 98),
}
TERRAIN_MARK: Final[dict[str, Color]] = {
    "forest": (36, 78, 42),
    "mountain": (98, 92, 86),
    "steppe": (170, 140, 78),
    "grassland": (108, 156, 66),
}
TERRAIN_LABEL: Final[dict[str, str]] = {
    "forest": "Forest",
    "mountain": "Mountain",
    "steppe": "Steppe",
    "grassland": "Grassland",
}

SEA: Final[Color] = (33, 70, 104)
WATER: Final[Color] = (70, 132, 186)
WATER_EDGE: Final[Color] = (44, 96, 146)
BORDER: Final[Color] = (40, 44, 40)

BG: Final[Color] = (24, 27, 33)
PANEL: Final[Color] = (36, 40, 48)
PANEL_HI: Final[Color] = (52, 58, 70)
CARD: Final[Color] = (46, 51, 61)
TEXT: Final[Color] = (236, 236, 232)
TEXT_DIM: Final[Color] = (160, 164, 172)
ACCENT: Final[Color] = (255, 196, 64)
GOOD: Final[Color] = (120, 210, 120)
BAD: Final[Color] = (240, 110, 90)
SELECT: Final[Color] = (255, 255, 255)
TARGET: Final[Color] = (255, 214, 90)
BUTTON: Final[Color] = (64, 72, 88)
BUTTON_DOWN: Final[Color] = (96, 108, 130)
BUTTON_OFF: Final[Color] = (44, 48, 56)
PRIMARY: Final[Color] = (46, 120, 92)
DANGER: Final[Color] = (150, 62, 56)

ROMAN: Final = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


def roman(n: int) -> str:
    """Epoch numbers as on the chart (I-V); plain digits past X."""
    return ROMAN[n] if 0 < n < len(ROMAN) else str(n)


def mix(a: Color, b: Color, t: float) -> Color:
    """Blend ``a`` toward ``b`` by ``t`` (0..1)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
