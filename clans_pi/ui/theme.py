"""Colours and sizes shared by every screen.

Clan colours are only ever used for huts, the score track and a peek; avatars and seat
badges use other colours, so no seat is ever drawn in a clan's colour (R22).
"""

from __future__ import annotations

from typing import Final

from ..i18n import N_

Color = tuple[int, int, int]

# The clan colours as shown, keyed by colour name: the engine's five clans, and "white",
# the fifth clan when the settings show it white (R3; its engine id stays "black"). Chosen to
# stay apart from each other and from every terrain they stand on, also under simulated
# protanopia, deuteranopia and tritanopia (tests/test_palette.py measures it).
CLAN_COLORS: Final[dict[str, Color]] = {
    "red": (250, 35, 10),
    "blue": (10, 63, 215),
    "green": (0, 153, 94),
    "yellow": (252, 238, 13),
    "black": (16, 16, 18),
    "white": (248, 252, 255),
}
#: Number colour on each clan's hut (and text on its colour), chosen for contrast.
CLAN_INK: Final[dict[str, Color]] = {
    "red": (255, 255, 255),
    "blue": (255, 255, 255),
    "green": (255, 255, 255),
    "yellow": (30, 30, 30),
    "black": (255, 255, 255),
    "white": (30, 30, 30),
}
#: The outline of each clan's hut: dark, except round the black hut, which would vanish.
CLAN_OUTLINE: Final[dict[str, Color]] = {
    "red": (20, 20, 24),
    "blue": (20, 20, 24),
    "green": (20, 20, 24),
    "yellow": (20, 20, 24),
    "black": (250, 250, 250),
    "white": (20, 20, 24),
}
#: Each clan's name, marked for translation: show it as ``_(CLAN_LABEL[clan])``.
CLAN_LABEL: Final[dict[str, str]] = {
    "red": N_("Red"),
    "blue": N_("Blue"),
    "green": N_("Green"),
    "yellow": N_("Yellow"),
    "black": N_("Black"),
    "white": N_("White"),
}

TERRAIN_COLORS: Final[dict[str, Color]] = {
    "forest": (61, 106, 77),
    "mountain": (148, 146, 146),
    "steppe": (229, 185, 116),
    "grassland": (169, 203, 130),
}
TERRAIN_MARK: Final[dict[str, Color]] = {
    "forest": (35, 72, 55),
    "mountain": (100, 100, 104),
    "steppe": (187, 141, 76),
    "grassland": (127, 165, 98),
}
#: Each terrain's name, marked for translation: show it as ``_(TERRAIN_LABEL[terrain])``.
TERRAIN_LABEL: Final[dict[str, str]] = {
    "forest": N_("Forest"),
    "mountain": N_("Mountain"),
    "steppe": N_("Steppe"),
    "grassland": N_("Grassland"),
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
