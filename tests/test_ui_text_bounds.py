"""Text the screens draw is bounded before it reaches the font renderer: a name cut short
with an ellipsis is found in a logarithmic number of measurements, and no text longer than
canvas.MAX_DRAWN code points is measured or rendered (a 10,000-character name crashed the
renderer; 10,000 combining marks have no width, so only their count bounds them)."""

from __future__ import annotations

import math

import pytest

from clans_pi.ui import canvas

LONG = {"plain": "Abc def " * 1_250, "marks": "a" + "\u0301" * 9_999}


class CountingFont:
    """A font that notes the length of every text it measures or renders."""

    def __init__(self, font, sized: list[int], drawn: list[int]) -> None:
        self._font, self._sized, self._drawn = font, sized, drawn

    def size(self, text: str) -> tuple[int, int]:
        self._sized.append(len(text))
        return self._font.size(text)

    def render(self, text: str, *args):
        self._drawn.append(len(text))
        return self._font.render(text, *args)

    def __getattr__(self, name: str):
        return getattr(self._font, name)


@pytest.fixture
def counted(monkeypatch) -> tuple[list[int], list[int]]:
    sized: list[int] = []
    drawn: list[int] = []
    real = canvas._font
    monkeypatch.setattr(canvas, "_font",
                        lambda path, px: CountingFont(real(path, px), sized, drawn))
    return sized, drawn


@pytest.mark.parametrize("px", [18, 48])  # smoothed (small) and plain sizes
def test_shortened_measures_a_long_name_a_logarithmic_number_of_times(counted, px):
    sized, _ = counted
    text = LONG["plain"]
    short = canvas.shortened(text, px, 300)
    assert short.endswith("…") and text.startswith(short[:-1])
    assert len(sized) <= 2 * math.ceil(math.log2(len(text))) + 4, len(sized)
    assert max(sized) <= canvas.MAX_DRAWN
    assert canvas.text_width(short, px) <= 300
    assert canvas.text_width(short[:-1] + text[len(short) - 1] + "…", px) > 300 or \
        short[-2:-1] == " "  # as long as fits (bar the space the cut drops)


def test_shortened_keeps_a_text_that_fits_and_cuts_combining_marks_by_count(counted):
    sized, drawn = counted
    assert canvas.shortened("Ada", 24, 300) == "Ada"
    short = canvas.shortened(LONG["marks"], 24, 300)
    assert short.endswith("…") and len(short) <= canvas.MAX_DRAWN
    assert max(sized) <= canvas.MAX_DRAWN
    canvas.rendered(short, 24, (0, 0, 0))
    assert drawn and max(drawn) <= canvas.MAX_DRAWN


@pytest.mark.parametrize("kind", ["plain", "marks"])
@pytest.mark.parametrize("px", [18, 48])
def test_no_text_longer_than_the_cap_reaches_the_font(counted, kind, px):
    sized, drawn = counted
    text = LONG[kind] + str(px)  # not in the cache of rendered texts
    surface = canvas.rendered(text, px, (10, 20, 30))
    canvas.text_width(text, px)
    canvas.wrap(text, px, 400)
    assert surface.get_width() > 0
    assert drawn and sized and max(drawn + sized) <= canvas.MAX_DRAWN + 1, max(drawn + sized)
