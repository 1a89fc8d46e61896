"""How each clan looks on every device: its colour, the ink on it, its hut's outline, its
mark and its name. Pygame-free, so the screen (``clans_pi.ui``) and the phones' page
(``clans_pi.phones``) take them from this one place.

Clan colours are keyed by colour name: the engine's five clans, and "white", the fifth clan
when the settings show it white (R3; its engine id stays "black", see
:func:`clans_pi.settings.options.shown_clan`). Marks are keyed by engine id: the fifth clan has one
mark, black or white.
"""

from __future__ import annotations

from typing import Final

from .i18n import N_, _
from .settings.options import shown_clan

Color = tuple[int, int, int]

# Chosen to stay apart from each other and from every terrain they stand on, also under
# simulated protanopia, deuteranopia and tritanopia (tests/test_palette.py measures it).
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



def clan_name(clan: str, fifth_clan: str = "black") -> str:
    """The name of ``clan`` (an engine id) in the language in use, as every device names
    it: the fifth clan as ``fifth_clan`` shows it (black or white, R3)."""
    return _(CLAN_LABEL[shown_clan(clan, fifth_clan)])


#: The pattern drawn over each clan's colour (engine ids), so a clan can be told from the
#: others without seeing colour (colour-blind players, a dim room). The same family as the
#: Pico handheld's display (firmware/handheld.py ``pattern_ops``): red horizontal stripes,
#: blue vertical stripes, green diagonal stripes, yellow dots, black (or white) checks.
MARKS: Final[dict[str, str]] = {
    "red": "horizontal",
    "blue": "vertical",
    "green": "diagonal",
    "yellow": "dots",
    "black": "checks",
}


def mark_of(shown: str) -> str | None:
    """The mark of the clan shown as colour ``shown`` (a key of :data:`CLAN_COLORS`); None
    for a name that is no clan's (the phones' load test gives seats made-up clans)."""
    return MARKS.get("black" if shown == "white" else shown)


def mix(a: Color, b: Color, t: float) -> Color:
    """Blend ``a`` toward ``b`` by ``t`` (0..1)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def mark_color(shown: str) -> Color:
    """The colour of the mark on the clan shown as ``shown``: halfway from its colour
    toward its ink, plain to see yet not so strong that it stops looking that colour."""
    return mix(CLAN_COLORS[shown], CLAN_INK[shown], 0.5)
