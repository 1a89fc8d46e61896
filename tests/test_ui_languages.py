"""Every screen in every language: text fits its box, no character lacks a glyph, and
nothing is left in English. 800x480 for every language, every size for German (the longest
words) and Japanese (another font, no spaces)."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from clans_pi import i18n
from clans_pi.table.guide import TOPICS
from clans_pi.ui.screens.language import LanguageScreen
from tests.bot_fakes import Bots
from tests.i18n_helpers import language, text_problems
from tests.test_i18n import LOCALE, TRANSLATED
from tests.test_ui_bots_screens import reveal_with_guesses
from tests.test_ui_guide_cards import _card_app
from tests.test_ui_layout import SCREENS
from tests.ui_helpers import SIZES, act, offscreen_app


def _languages(app):
    app.start_menu()
    app.show(LanguageScreen(app, lambda code: None, app.start_menu))


def _start_computers(app):
    app.table.bots = Bots()
    app.start_menu()
    act(app.screen, "players4")
    for k in range(4):
        for _ in range(k):
            act(app.screen, f"kind{k}")





ALL_SCREENS = {**SCREENS, "languages": _languages, "start_computers": _start_computers,
               "reveal_guesses": reveal_with_guesses}
CASES = [(code, (800, 480)) for code in TRANSLATED] + [
    (code, size) for code in ("de", "ja") for size in SIZES if size != (800, 480)]


def _english_left(code: str) -> dict[str, str]:
    """Each English message (and plural) whose translation into ``code`` differs."""
    with open(LOCALE / code / "LC_MESSAGES" / "clans_pi.po", "rb") as f:
        catalog = read_po(f, locale=code)
    out = {}
    for m in catalog:
        if not m.id:
            continue
        sources = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in sources:
            if "{" not in s and s not in forms:
                out[s] = forms[0]
    return out


@pytest.mark.parametrize("screen", list(ALL_SCREENS))
@pytest.mark.parametrize("code, size", CASES, ids=lambda v: v if isinstance(v, str)
                         else f"{v[0]}x{v[1]}")
def test_every_screen_in_every_language(code, size, screen):
    with language(code):
        app, _ = offscreen_app(size)
        app.table.seats = []
        ALL_SCREENS[screen](app)
        app.redraw()
        problems = text_problems(app)
        english = _english_left(code)
        shown = {d.name for d in app.canvas.records if d.kind == "text"}
        problems += [f"still English: {t!r} (should be {english[t]!r})"
                     for t in sorted(shown) if t in english]
        assert not problems, "\n".join(problems)
        if app.bots is not None:
            app.table.computers.shutdown()
    assert i18n.language() == "en"


@pytest.mark.parametrize("topic", TOPICS)
@pytest.mark.parametrize("code, size", CASES, ids=lambda v: v if isinstance(v, str)
                         else f"{v[0]}x{v[1]}")
def test_every_guide_card_in_every_language(code, size, topic):
    """The first-game guide's cards (their text is built per game: counts, names, terrains)
    fit and are translated like every screen."""
    with language(code):
        app = _card_app(size, topic)
        problems = text_problems(app)
        english = _english_left(code)
        shown = {d.name for d in app.canvas.records if d.kind in ("text", "paragraph")}
        problems += [f"still English: {t!r}" for t in sorted(shown) if t in english]
        assert not problems, "\n".join(problems)
