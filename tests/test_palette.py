"""The clan colours stay apart, for normal colour vision and for colour-blind players.

Colour-vision deficiency is simulated with Machado, Oliveira & Fernandes (2009) at full
severity (protanopia, deuteranopia, tritanopia: one kind of cone missing), as
``colour-science`` ships the published matrices; they act on linear sRGB. Colours are then
compared with CIEDE2000 (``colour.delta_E``), the CIE's colour-difference formula.

Thresholds. A CIEDE2000 difference near 2 is just noticeable between two large patches side
by side. A hut is a small mark (18 px on the 7" screen), often seen apart from the hut it
must be told from, across a table, in a dim room; small marks need several times the
difference of large patches to be told apart (Stone, Szafir and Setlur, "An engineering
model for color difference as a function of size", 2014). So:

- CLAN_PAIR_MIN = 15 between any two clans' colours: clans must be *named*, not merely
  noticed as different; and
- ON_TERRAIN_MIN = 12 between a clan's colour and each terrain colour (huts stand on every
  terrain): the hut's outline, dark or light, already parts it from the ground, so its fill
  only has to stay clearly unlike the ground.

The old palette (before the colour-blind work) was as low as 4.9 (a red hut on forest,
protanopia), 5.7 (yellow on steppe, tritanopia) and 7.5 (red against green, deuteranopia);
:func:`test_the_old_palette_fails` keeps that as proof that these tests can fail.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

with warnings.catch_warnings():  # colour-science notes that SciPy and Matplotlib are absent
    warnings.simplefilter("ignore")
    import colour
    from colour.blindness import matrix_cvd_Machado2009

from clans_pi.ui.clan_look import FIFTH_CLANS, ClanLook
from clans_pi.ui.theme import CLAN_COLORS, CLAN_INK, CLAN_OUTLINE, TERRAIN_COLORS, Color

CLAN_PAIR_MIN = 15.0
ON_TERRAIN_MIN = 12.0
#: In poor light the eye sees lightness more than hue; the complaint was blue against green.
BLUE_GREEN_LIGHTNESS_MIN = 15.0
#: Numbers on a hut, and the hut's mark, must stand out of its colour in every simulation.
INK_MIN = 30.0
MARK_MIN = 15.0

SIMULATIONS = ("normal", "protanopia", "deuteranopia", "tritanopia")
with warnings.catch_warnings():
    # For tritanomaly colour-science warns that Machado's published matrices were made with
    # a different shift domain than the other two; they are still the published ones.
    warnings.simplefilter("ignore")
    _MACHADO = {sim: matrix_cvd_Machado2009(name, 1.0) for sim, name in (
        ("protanopia", "Protanomaly"), ("deuteranopia", "Deuteranomaly"),
        ("tritanopia", "Tritanomaly"))}  # colour-science's names; severity 1 = the -opia


def seen(rgb: Color, simulation: str) -> np.ndarray:
    """CIELAB of the sRGB colour ``rgb`` (0-255) as seen with ``simulation``."""
    linear = colour.cctf_decoding(np.asarray(rgb, dtype=float) / 255, function="sRGB")
    if simulation != "normal":
        linear = np.clip(_MACHADO[simulation] @ linear, 0, 1)
    xyz = colour.RGB_to_XYZ(linear, colour.RGB_COLOURSPACES["sRGB"],
                            apply_cctf_decoding=False)
    return colour.XYZ_to_Lab(xyz)


def difference(a: Color, b: Color, simulation: str) -> float:
    """CIEDE2000 between ``a`` and ``b`` as seen with ``simulation``."""
    return float(colour.delta_E(seen(a, simulation), seen(b, simulation), method="CIE 2000"))


def shown_clans(fifth: str) -> dict[str, Color]:
    """The five clans' colours on screen with the fifth clan ``fifth``."""
    look = ClanLook(fifth=fifth)
    return {look.shown(c): look.color(c) for c in ("red", "blue", "green", "yellow", "black")}


def too_close(clans: dict[str, Color], terrains: dict[str, Color]) -> list[str]:
    """Every pair under its threshold, as "a/b simulation: difference"."""
    pairs = [(a, b, clans[a], clans[b], CLAN_PAIR_MIN)
             for a, b in itertools.combinations(clans, 2)]
    pairs += [(a, t, clans[a], terrains[t], ON_TERRAIN_MIN) for a in clans for t in terrains]
    return [f"{a}/{b} {sim}: {d:.1f} < {least}"
            for a, b, ca, cb, least in pairs for sim in SIMULATIONS
            if (d := difference(ca, cb, sim)) < least]


@pytest.mark.parametrize("fifth", FIFTH_CLANS)
def test_clans_stay_apart_from_each_other_and_the_terrain(fifth: str) -> None:
    """Every clan pair and every clan/terrain pair, normal vision and the three simulated
    deficiencies, with the fifth clan black and white (R3)."""
    assert too_close(shown_clans(fifth), TERRAIN_COLORS) == []


def test_the_old_palette_fails() -> None:
    """The old colours: the test above finds its problem pairs."""
    old_clans = {"red": (214, 48, 49), "blue": (38, 99, 221), "green": (46, 164, 79),
                 "yellow": (245, 200, 35), "black": (34, 34, 38)}
    old_terrain = {"forest": (62, 112, 64), "mountain": (146, 138, 128),
                   "steppe": (212, 184, 118), "grassland": (150, 194, 98)}
    found = too_close(old_clans, old_terrain)
    assert any(line.startswith("red/forest protanopia: 4.9") for line in found), found
    assert any(line.startswith("yellow/steppe tritanopia: 5.7") for line in found), found
    assert any(line.startswith("red/green deuteranopia: 7.5") for line in found), found


def test_blue_and_green_differ_in_lightness() -> None:
    """Blue and green huts were hard to tell apart in poor light: they now differ in CIE
    lightness (L*), which survives dim light and every deficiency."""
    blue = seen(CLAN_COLORS["blue"], "normal")[0]
    green = seen(CLAN_COLORS["green"], "normal")[0]
    assert abs(green - blue) >= BLUE_GREEN_LIGHTNESS_MIN


@pytest.mark.parametrize("shown", sorted(CLAN_COLORS))
@pytest.mark.parametrize("simulation", SIMULATIONS)
def test_numbers_outline_and_mark_stand_out_on_each_clan(shown: str, simulation: str) -> None:
    fill = CLAN_COLORS[shown]
    fifth = "white" if shown == "white" else "black"
    clan = "black" if shown in FIFTH_CLANS else shown
    look = ClanLook(fifth=fifth)
    assert difference(fill, CLAN_INK[shown], simulation) >= INK_MIN
    assert difference(fill, CLAN_OUTLINE[shown], simulation) >= INK_MIN
    assert difference(fill, look.mark_color(clan), simulation) >= MARK_MIN


# Recognisable as their names: CIE LCh hue angle ranges (normal vision) and least chroma.
HUES = {"red": (25, 45, 60), "blue": (270, 305, 50), "green": (130, 165, 40),
        "yellow": (80, 105, 60)}


@pytest.mark.parametrize("name", sorted(CLAN_COLORS))
def test_clan_colours_look_like_their_names(name: str) -> None:
    lightness, a, b = seen(CLAN_COLORS[name], "normal")
    chroma, hue = float(np.hypot(a, b)), float(np.degrees(np.arctan2(b, a)) % 360)
    if name == "black":
        assert lightness <= 15 and chroma <= 5
    elif name == "white":
        assert lightness >= 95 and chroma <= 5
    else:
        low, high, least = HUES[name]
        assert low <= hue <= high and chroma >= least, (hue, chroma)
