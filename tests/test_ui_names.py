"""Naming a seat without a keyboard: pictures bring their names, typed names are tidy,
two seats never share a name."""

from __future__ import annotations

from clans_pi.session import Seat
from clans_pi.ui.screens.names import ACCENT_ROWS, KEY_ROWS, MAX_NAME, NameScreen, clean_name
from tests.ui_helpers import act, offscreen_app

OTHERS = (Seat("Owl", "owl"),)


def _screen(others=OTHERS):
    app, _ = offscreen_app()
    chosen: list[Seat] = []
    screen = NameScreen(app, Seat("Fox", "fox"), list(others), 0, chosen.append, lambda: None)
    app.show(screen)
    return screen, chosen


def test_typing_starts_afresh_and_capitalises_words():
    screen, chosen = _screen()
    act(screen, "mode")
    assert screen.text == ""
    screen.type_text("mary-ann  o'neil")
    assert screen.text == "Mary-Ann O'n"[:MAX_NAME]
    act(screen, "ok")
    assert chosen == [Seat(clean_name("Mary-Ann O'n"), "fox")]


def test_names_are_limited_and_never_shared():
    screen, chosen = _screen()
    act(screen, "mode")
    screen.type_text("x" * (MAX_NAME + 5))
    assert len(screen.text) == MAX_NAME and screen.problem
    act(screen, "key_clear")
    act(screen, "ok")
    assert screen.problem == "Type a name or pick a picture" and not chosen
    screen.type_text("owl")
    act(screen, "ok")
    assert screen.problem == "Owl is already playing" and not chosen


def test_a_picture_taken_by_another_seat_cannot_be_picked():
    screen, chosen = _screen()
    assert not screen.button("avatar_owl").enabled
    screen.button("avatar_cat").action()
    act(screen, "ok")
    assert chosen == [Seat("Cat", "cat")]


def test_the_accent_page_types_german_french_and_italian_names():
    screen, chosen = _screen()
    act(screen, "mode")
    assert {b.name for b in screen.buttons} >= {f"key_{ch}" for ch in "QWERTZ"}
    screen.button("key_page").action()
    # Every accented key is there, same shape as the plain page, and the page key goes back.
    assert [len(r) for r in ACCENT_ROWS] == [len(r) for r in KEY_ROWS]
    keys = {b.name for b in screen.buttons if b.name.startswith("key_")}
    assert {f"key_{ch}" for row in ACCENT_ROWS for ch in row} <= keys
    assert "key_Q" not in keys
    screen.button("key_page").action()  # back to the plain letters
    screen.button("key_Z").action()
    screen.button("key_O").action()
    screen.button("key_page").action()  # accents
    screen.button("key_É").action()
    assert screen.text == "Zoé"
    act(screen, "ok")
    assert chosen == [Seat("Zoé", "fox")]


def test_accented_letters_follow_the_capitals_rule_and_sharp_s_stays_one_letter():
    screen, _ = _screen()
    act(screen, "mode")
    screen.type_text("élodie ßtraße ÖZIL")
    # ß has no one-letter capital ("ß".upper() is "SS"): it is typed as it is.
    assert screen.text == "Élodie ßtraß"
    assert len(screen.text) == MAX_NAME
