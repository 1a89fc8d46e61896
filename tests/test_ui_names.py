"""Naming a seat without a keyboard: pictures bring their names, typed names are tidy,
two seats never share a name."""

from __future__ import annotations

from clans_pi.session import Seat
from clans_pi.ui.screens.names import MAX_NAME, NameScreen, clean_name
from tests.ui_helpers import offscreen_app

OTHERS = (Seat("Owl", "owl"),)


def _screen(others=OTHERS):
    app, _ = offscreen_app()
    chosen: list[Seat] = []
    screen = NameScreen(app, Seat("Fox", "fox"), list(others), 0, chosen.append, lambda: None)
    app.show(screen)
    return screen, chosen


def test_typing_starts_afresh_and_capitalises_words():
    screen, chosen = _screen()
    screen._toggle()
    assert screen.text == ""
    screen.type_text("mary-ann  o'neil")
    assert screen.text == "Mary-Ann O'n"[:MAX_NAME]
    screen._ok()
    assert chosen == [Seat(clean_name("Mary-Ann O'n"), "fox")]


def test_names_are_limited_and_never_shared():
    screen, chosen = _screen()
    screen._toggle()
    screen.type_text("x" * (MAX_NAME + 5))
    assert len(screen.text) == MAX_NAME and screen.problem
    screen._clear()
    screen._ok()
    assert screen.problem == "Type a name or pick a picture" and not chosen
    screen.type_text("owl")
    screen._ok()
    assert screen.problem == "Owl is already playing" and not chosen


def test_a_picture_taken_by_another_seat_cannot_be_picked():
    screen, chosen = _screen()
    assert not screen.button("avatar_owl").enabled
    screen.button("avatar_cat").action()
    screen._ok()
    assert chosen == [Seat("Cat", "cat")]
