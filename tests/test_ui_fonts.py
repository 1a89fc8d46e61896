"""Choosing the Japanese face by what it draws (every character the Japanese screens hold),
the bundled font filling a face's gaps run by run, measured as drawn, and the tests' own
pinned font whatever the machine has installed."""

from __future__ import annotations

import pytest

from clans_pi import i18n
from clans_pi.ui import canvas, fonts, languages
from clans_pi.ui.canvas import wrap
from clans_pi.ui.screens.names import ACCENT_ROWS, KEY_ROWS
from tests.font_helpers import LATIN_AND_DIGITS, PINNED_CJK, font_without
from tests.i18n_helpers import language

#: A kanji of the Japanese catalogue (種族: clan) that the bundled font cannot draw.
KANJI = "族"


@pytest.fixture(scope="module")
def no_village(tmp_path_factory) -> str:
    """A Japanese face without one kanji of the catalogue (and without Latin)."""
    return font_without(LATIN_AND_DIGITS + KANJI,
                        tmp_path_factory.mktemp("fonts") / "novillage.otf")


@pytest.fixture
def lookup(monkeypatch):
    """The lookup's candidates as a machine without the pin would try them."""
    def having(*paths: str) -> None:
        monkeypatch.delenv("CLANS_PI_CJK_FONT", raising=False)
        monkeypatch.setattr(fonts, "candidates", lambda: iter(paths))
        fonts.cjk_font.cache_clear()

    yield having
    fonts.cjk_font.cache_clear()
    assert languages.use("en") is None


def test_the_tests_draw_japanese_with_the_pinned_font_whatever_fc_match_answers(
        monkeypatch, no_latin):
    assert PINNED_CJK is not None, "the dev extra's noto-cjk-sans-jp-regular is missing"
    monkeypatch.setattr(fonts, "_fc_match", lambda: no_latin)
    fonts.cjk_font.cache_clear()
    assert fonts.cjk_font() == PINNED_CJK
    assert not canvas.missing_glyphs(fonts.needed("ja"), PINNED_CJK)
    fonts.cjk_font.cache_clear()


def test_what_japanese_needs_is_its_catalogue_and_every_latin_letter_a_name_can_hold():
    need = set(fonts.needed("ja"))
    assert {KANJI, "村", "ゲ", "。", "A", "z", "0", "9", "%", "+", "(", "ß", "é", "Œ"} <= need
    typed = "".join(KEY_ROWS + ACCENT_ROWS)
    assert set(typed) | set(typed.lower()) <= set(fonts.LATIN)
    assert not canvas.missing_glyphs(fonts.LATIN)  # the bundled font fills any such gap


@pytest.mark.parametrize("content", [None, b"garbage", b"\xde\x12\x04\x95\x00"])
def test_without_a_readable_catalogue_the_check_asks_for_latin_and_a_probe(
        monkeypatch, tmp_path, content):
    if content is not None:
        mo = tmp_path / "ja" / "LC_MESSAGES" / "clans_pi.mo"
        mo.parent.mkdir(parents=True)
        mo.write_bytes(content)  # not a catalogue, or a torn one
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    fonts.needed.cache_clear()
    try:
        need = fonts.needed("ja")
    finally:
        fonts.needed.cache_clear()
    assert set(fonts.LATIN) <= set(need) and "村" in need and "族" not in need


def test_a_face_that_draws_everything_is_preferred_to_one_without_latin(lookup, no_latin):
    lookup(no_latin, PINNED_CJK)
    assert fonts.cjk_font() == PINNED_CJK


def test_a_face_without_latin_is_taken_when_nothing_better_is_there(lookup, no_latin):
    lookup("/nonexistent/font.otf", no_latin)
    assert fonts.cjk_font() == no_latin
    assert languages.use("ja") is None and canvas.face() == no_latin


def test_a_face_lacking_japanese_the_screens_hold_is_not_taken(lookup, no_village, no_latin,
                                                              caplog):
    lookup(no_village, no_latin)
    assert fonts.cjk_font() == no_latin  # the gap in no_village is not Latin: skipped
    lookup(no_village)
    assert fonts.cjk_font() is None
    assert f"{no_village} (lacks" in caplog.text and KANJI in caplog.text
    assert languages.unavailable("ja") == "font"


def test_the_bundled_font_fills_a_faces_gaps_and_wrapping_measures_them_so(lookup, no_latin):
    lookup(no_latin)
    text = ("Annaさんの番です。Benさんは3つの小屋を動かし、「村」を作ると"
            "ボーナスチップ+5を取ります。Cleo、Dev: 40%")
    with language("ja"):
        assert canvas.face() == no_latin
        assert not canvas.undrawable(text, no_latin)
        for piece in ("Anna", "Annaさん", "3つ", "+5を", "40%", text):
            surf = canvas.rendered(piece, 20, (255, 255, 255))
            assert surf.get_width() == canvas.text_width(piece, 20), piece
            assert surf.get_height() == canvas._band(no_latin, 20)[1]
        # Latin letters keep the size they have in other languages' text beside kanji.
        latin = canvas.rendered("Anna", 20, (255, 255, 255)).get_bounding_rect()
        mixed = canvas.rendered("Anna村", 20, (255, 255, 255)).get_bounding_rect()
        assert abs(mixed.height - latin.height) <= latin.height // 2
        for width in range(60, 400, 9):
            lines = wrap(text, 20, width)
            assert "".join(lines).replace(" ", "") == text.replace(" ", "")
            for line in lines:
                assert (canvas.text_width(line, 20) <= width
                        or len(canvas._tokens(line)) == 1), (width, line)  # unbreakable
                assert line[0] not in canvas.NO_LINE_START, (width, line)
