"""Choosing the language: the start screen's language button, remembered in the state
directory across restarts (a bad file is logged and the settings' language used), the
settings' ``language``, and what happens when a language cannot be shown (no Japanese
font, no compiled catalogue): English, a notice and a log line, never tofu or a traceback."""

from __future__ import annotations

import logging

import pytest

from clans_pi import i18n
from clans_pi.session import Seat
from clans_pi.settings.config import Config
from clans_pi.ui import canvas, fonts, languages
from clans_pi.ui.canvas import wrap
from clans_pi.ui.languages import LanguageFile
from clans_pi.ui.run import play
from clans_pi.ui.screens.language import LanguageScreen
from tests.i18n_helpers import language, text_problems
from tests.ui_helpers import BOARD, CHART, offscreen_app


@pytest.fixture(autouse=True)
def _english_after():
    yield
    assert languages.use("en") is None
    fonts.cjk_font.cache_clear()


@pytest.fixture
def no_cjk_font(monkeypatch):
    """A machine without any Japanese font."""
    monkeypatch.setattr(fonts, "candidates", lambda: iter(()))
    fonts.cjk_font.cache_clear()
    yield
    fonts.cjk_font.cache_clear()


def texts(app) -> set[str]:
    return {d.name for d in app.canvas.records if d.kind == "text"}


def choose(app, code: str) -> None:
    app.screen.button("language").action()
    assert app.screen.name == "language"
    app.screen.button(f"lang_{code}").action()
    assert app.screen.name == "start"


def test_the_start_screen_switches_everything_at_once_and_remembers_it(tmp_path):
    app, _ = offscreen_app()
    app.language_file = LanguageFile(tmp_path / "language")
    app.start_menu()
    app.screen.all_seats[1] = Seat("Anna", "owl")  # a typed name stays as typed
    app.redraw()
    assert {"Start the game", "English", "Fox"} <= texts(app)
    choose(app, "de")
    app.redraw()
    shown = texts(app)
    assert {"Spiel starten", "Deutsch", "Fuchs", "Anna", "Wie viele Spieler?"} <= shown
    assert not shown & {"Start the game", "Fox", "Rules", "English"}
    assert not text_problems(app)
    assert (tmp_path / "language").read_text() == "de\n"
    choose(app, "ja")
    app.redraw()
    assert {"ゲーム開始", "キツネ", "日本語"} <= texts(app)
    assert canvas.face() == fonts.cjk_font()
    assert not text_problems(app)
    choose(app, "en")
    app.redraw()
    assert {"Start the game", "Fox", "Anna"} <= texts(app)
    assert canvas.face() is None
    assert (tmp_path / "language").read_text() == "en\n"


def test_the_language_screen_shows_each_language_in_its_own_script():
    app, _ = offscreen_app()
    app.start_menu()
    app.screen.button("language").action()
    app.redraw()
    assert set(i18n.LANGUAGES.values()) <= texts(app)
    assert not text_problems(app)  # 日本語 is drawn with the Japanese font, not as boxes
    app.screen.button("back").action()
    assert app.screen.name == "start" and i18n.language() == "en"


def _start(tmp_path, config: Config) -> str:
    """Start the game for one frame as ./scripts/play does; the language it shows."""
    play(BOARD, CHART, size=(800, 480), fullscreen=False, rotate=0, seed=1,
         first_frame_only=True, config=config, state_dir=tmp_path)
    return i18n.language()


def test_the_remembered_choice_wins_over_the_settings_after_a_restart(tmp_path):
    assert _start(tmp_path, Config(language="fr")) == "fr"  # nothing remembered yet
    LanguageFile(tmp_path / "language").write("it")
    assert _start(tmp_path, Config(language="fr")) == "it"


@pytest.mark.parametrize("content", [b"klingon\n", b"\xff\xfe\x00", b""])
def test_a_bad_remembered_choice_is_logged_and_the_settings_used(tmp_path, caplog, content):
    (tmp_path / "language").write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="clans_pi.settings.language"):
        assert _start(tmp_path, Config(language="de")) == "de"
    lines = [r.getMessage() for r in caplog.records if r.name == "clans_pi.settings.language"]
    assert len(lines) == 1 and str(tmp_path / "language") in lines[0]
    assert "the settings' language is used" in lines[0]


def test_a_choice_that_cannot_be_written_is_logged_and_kept_for_now(tmp_path, caplog):
    (tmp_path / "language").mkdir()  # a directory where the file should be
    with caplog.at_level(logging.WARNING, logger="clans_pi.settings.language"):
        LanguageFile(tmp_path / "language").write("de")
    assert "cannot remember the language" in caplog.text


def test_without_a_japanese_font_japanese_is_not_offered_and_english_shown(no_cjk_font, caplog,
                                                                          tmp_path):
    with caplog.at_level(logging.WARNING, logger="clans_pi.ui.fonts"):
        assert fonts.cjk_font() is None
        assert fonts.cjk_font() is None  # looked up once: one log line
    assert [r.getMessage() for r in caplog.records] == [
        "no font with Japanese characters (tried: none found); Japanese is not offered "
        "(install one: sudo apt install fonts-noto-cjk)"]
    caplog.clear()
    problem = languages.use("ja")
    assert problem == ("Japanese (ja): no font with Japanese characters was found (install "
                       "one: sudo apt install fonts-noto-cjk); English is shown")
    assert i18n.language() == "en" and canvas.face() is None
    app, _ = offscreen_app()
    app.start_menu()
    app.set_language("ja")  # as a remembered choice would: the notice is readable
    app.redraw()
    assert any(r.kind == "region" and r.name == "notice" for r in app.canvas.records)
    assert app.notice is not None and app.notice[0] == problem
    assert not text_problems(app)

    app, _ = offscreen_app()
    app.start_menu()
    app.show(LanguageScreen(app, lambda code: None, app.start_menu))
    app.redraw()
    assert not app.screen.button("lang_ja").enabled
    assert "Japanese needs a Japanese font: sudo apt install fonts-noto-cjk" in texts(app)
    assert not text_problems(app)
    # The settings ask for Japanese: English, one log line and a notice saying why.
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert _start(tmp_path, Config(language="ja")) == "en"
    assert sum("fonts-noto-cjk" in r.getMessage() for r in caplog.records) == 1


def test_a_missing_compiled_catalogue_gives_english_and_says_so(monkeypatch, tmp_path):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    assert languages.unavailable("de") == "catalogue"
    problem = languages.use("de")
    assert problem is not None and "no compiled catalogue for German (de)" in problem
    assert i18n.language() == "en"
    app, _ = offscreen_app()
    app.start_menu()
    app.set_language("de")
    assert app.notice is not None and "English is shown" in app.notice[0]
    app.screen.button("language").action()
    assert not app.screen.button("lang_de").enabled
    assert app.screen.button("lang_en").enabled


def test_the_font_lookup_skips_fonts_without_japanese(monkeypatch):
    monkeypatch.setenv("CLANS_PI_CJK_FONT", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    fonts.cjk_font.cache_clear()
    found = fonts.cjk_font()
    assert found is not None and found != "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    assert fonts.has_japanese(found)
    assert not fonts.has_japanese("/nonexistent/font.otf")


# ------------------------------------------------------------------ wrapping


def test_japanese_wraps_between_characters_and_never_starts_a_line_with_a_closing_mark():
    text = ("小屋のグループの隣がすべて空きエリアになると、そのグループは村になります。"
            "「村」を作ったプレイヤーは、次のボーナスチップを取ります。")
    with language("ja"):
        for width in range(60, 400, 7):
            lines = wrap(text, 20, width)
            assert "".join(lines) == text  # nothing lost, no spaces added
            assert len(lines) > 1
            for line in lines:
                assert canvas.text_width(line, 20) <= width or len(line) <= 2, (width, line)
                assert line[0] not in canvas.NO_LINE_START, (width, line)
                assert line[-1] not in canvas.NO_LINE_END, (width, line)


def test_latin_text_still_wraps_at_spaces_only():
    text = "Eine Gruppe von 7 oder mehr Hütten darf nur (wie immer) auf eine größere ziehen."
    for width in range(80, 500, 13):
        lines = wrap(text, 18, width)
        assert " ".join(lines) == text  # broken at spaces only, words whole
        assert all(canvas.text_width(line, 18) <= width or " " not in line for line in lines)


def test_a_word_too_long_for_a_line_goes_on_over_the_next_rather_than_being_cut():
    """A path in a notice, in a narrow panel: broken after a slash where it can be."""
    text = "A setting was not used: /boot/firmware/clans-pi.toml: display.rotate: 45"
    for width in range(60, 200, 11):
        lines = wrap(text, 18, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", ""), (width, lines)
        assert all(canvas.text_width(line, 18) <= width for line in lines), (width, lines)
    assert "/boot/firmware/" in wrap(text, 18, 140)  # not "/boot/firmware/clan"
    assert wrap("Honorificabilitudinitatibus", 18, 60)[0] != "Honorificabilitudinitatibus"


def test_a_percent_sign_stays_on_the_line_of_its_number():
    """"53 %" written with a space, as the French and the chart's give-aways write it: the
    sign never opens a line of its own."""
    text = "move 29: Blue, Black huts onto mountain: 53 % to 67 %"
    for width in range(90, 400, 5):  # from the width of its longest word
        lines = wrap(text, 14, width)
        assert " ".join(lines) == text, (width, lines)
        assert not any(line.startswith("%") for line in lines), (width, lines)



# ------------------------------------------------------------------ notices


def test_notices_are_in_the_players_language_and_the_log_stays_english(tmp_path, caplog):
    from gpiozero.pins.mock import MockFactory

    from clans_pi.hardware.seats import SeatDevices
    from tests.test_ui_devices import _devices

    bad = tmp_path / "pinout.toml"
    bad.write_text("[seat.1]\nbutton = 17\nred = 17\ngreen = 6\nblue = 13\n")
    with language("de"), caplog.at_level(logging.WARNING, logger="clans_pi.hardware.seats"):
        with SeatDevices.open(Config(seats={1: "gpio"}, pinout=bad),
                              pin_factory=MockFactory()) as devices:
            [notice] = devices.take_notices()
        assert notice.startswith("Ein Gerät am Platz ist nicht verfügbar: ")
        assert "GPIO17 is used twice" in notice  # the maker's detail, as logged
        assert caplog.records[0].getMessage().endswith("GPIO seats use the on-screen peek")
        devices, _gpio, _hand = _devices()
        devices.manager.events = [("foreign", "/dev/ttyACM3")]
        devices.poll(0)
        assert devices.take_notices() == [
            "/dev/ttyACM3 sieht aus wie ein Pico, ist aber kein Clans-Handgerät (zum "
            "Aufspielen: firmware/README.md)"]
