"""Colours and sizes shared by every screen.

Clan colours are only ever used for huts, the score track and a peek; avatars and seat
badges use other colours, so no seat is ever drawn in a clan's colour (R22).
"""

from __future__ import annotations

from typing import Final

from ..i18n import N_

# The clans' colours, ink, outlines and names (and their marks) are in clans_pi/palette.py,
# which the phones' page shows too; named here for the screens.
from ..palette import CLAN_COLORS as CLAN_COLORS
from ..palette import CLAN_INK as CLAN_INK
from ..palette import CLAN_LABEL as CLAN_LABEL
from ..palette import CLAN_OUTLINE as CLAN_OUTLINE
from ..palette import Color as Color
from ..palette import mix as mix

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

