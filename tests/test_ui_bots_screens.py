"""Computer players' screens at every size (the start screen's seat-kind buttons, the play
screen with a computer thinking and the hint button, the reveal with the guesses): text
fits, touch targets are big enough. And R22 on pixels: while a computer thinks, or once it
has moved, the shared screen is the same whatever the secret clans."""

from __future__ import annotations

import itertools
import random

import pygame
import pytest

from clans_pi.rules.constants import CLANS
from clans_pi.rules.setup import deal
from clans_pi.session import COMPUTER_KINDS, HUMAN, SEAT_KINDS, Seat, Session
from clans_pi.table.computers import BOT_PAUSE_MS
from clans_pi.ui.layout import scale_for
from clans_pi.ui.screens.play import SPIN_MS
from tests.bot_fakes import WAIT_S, BlockingBot, Bots, computer_to_move, worker_done
from tests.ui_helpers import BOARD, CHART, SIZES, act, offscreen_app, territory_point, with_clans


def _check_fits(app, size) -> None:
    """The layout checks of tests/test_ui_layout.py for the screen just drawn."""
    window = app.surface.get_rect()
    records = app.canvas.records
    assert [d for d in records if d.kind == "text"], "no text drawn"
    for d in records:
        assert window.contains(d.rect), f"{d.kind} {d.name!r} at {d.rect} leaves the window"
        assert d.fits, f"{d.kind} {d.name!r} does not fit its box {d.box}"
        assert not d.missing, f"text {d.name!r}: no glyph for {d.missing!r}"
        if d.kind == "text":
            assert d.box.inflate(2, 4).contains(d.rect), f"text {d.name!r} outside its box"
    minimum = 44 * scale_for(size)
    for d in records:
        if d.kind == "target":
            assert min(d.rect.size) >= minimum, f"touch target {d.name} is {d.rect.size}"


def _finish(app, bots) -> None:
    bots.release.set()
    app.table.computers.shutdown()
    assert app.table.computers.threads == []


# ------------------------------------------------------------------ sizes


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", [2, 4])
def test_start_screen_seat_kinds_at_every_size(size, players):
    app, _ = offscreen_app(size)
    app.table.bots = Bots()
    app.start_menu()
    act(app.screen, f"players{players}")
    for k in range(players):  # every kind on some seat: person, easy, normal, hard
        for _ in range(k):
            act(app.screen, f"kind{k}")
    seats = app.screen.seats
    assert [s.kind for s in seats] == list(SEAT_KINDS[:players])
    assert len({s.name for s in seats}) == players
    assert all(s.name.endswith(")") != s.is_human for s in seats)
    app.redraw()
    _check_fits(app, size)
    targets = {d.name for d in app.canvas.records if d.kind == "target"}
    assert {f"kind{k}" for k in range(players)} <= targets
    labels = {d.name for d in app.canvas.records if d.kind == "text"}
    assert {"Person", "Computer: Easy"} <= labels


def test_start_screen_offers_no_computers_without_bots():
    """Without bots every seat is a person, even a rematch list holding computers."""
    app, _ = offscreen_app()
    app.table.seats = [Seat("Owl (Hard)", "owl", "hard"), Seat("Anna", "fox")]
    app.start_menu()
    assert not [b for b in app.screen.buttons if b.name.startswith("kind")]
    assert app.screen.seats == [Seat("Owl", "owl"), Seat("Anna", "fox")]


def test_a_computer_seat_cycles_back_to_a_person_and_keeps_names_apart():
    app, _ = offscreen_app()
    app.table.bots = Bots()
    app.start_menu()
    screen = app.screen
    first = screen.seats[1]
    for kind in (*COMPUTER_KINDS, HUMAN):
        act(screen, "kind1")
        assert screen.seats[1].kind == kind
        assert screen.seats[1].avatar == first.avatar
    assert screen.seats[1] == first
    # a computer picks another picture on the name screen: its name follows
    act(screen, "kind1")
    act(screen, "seat1")
    names = app.screen
    assert "mode" not in {b.name for b in names.buttons}  # no typed name for a computer
    free = next(b.name for b in names.buttons if b.name.startswith("avatar_") and b.enabled
                and b.name != f"avatar_{first.avatar}")
    names.button(free).action()
    act(names, "ok")
    assert app.screen is screen
    assert screen.seats[1].name.endswith(" (Easy)") and screen.seats[1].kind == "easy"


def test_names_from_pictures_are_shown_in_the_language_in_use_and_typed_ones_as_typed():
    from clans_pi.ui.seat_kinds import shown_name
    from tests.i18n_helpers import language

    with language("de"):
        assert shown_name(Seat("Fox", "fox")) == "Fuchs"
        assert shown_name(Seat("Owl (Normal)", "owl", "normal")) == "Eule (Mittel)"
        assert shown_name(Seat("Renard", "fox")) == "Fuchs"  # a game played in French
        assert shown_name(Seat("Deer (Easy)", "")) == "Hirsch (Leicht)"  # an old record's
        assert shown_name(Seat("Anna", "fox")) == "Anna"
        assert shown_name(Seat("Bear", "fox")) == "Bear"  # typed, not the picture's name
        assert shown_name(Seat("Owl (Normal)", "owl", "hard")) == "Owl (Normal)"
    with language("ja"):
        assert shown_name(Seat("Fuchs", "fox")) == shown_name(Seat("Fox", "fox")) != "Fox"
    assert shown_name(Seat("Eule (Mittel)", "owl", "normal")) == "Owl (Normal)"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_play_screen_with_a_computer_thinking_and_hints_at_every_size(size):
    bots = Bots(BlockingBot)
    app, clock = offscreen_app(size)
    app.table.bots, app.table.hints = bots, True
    session = computer_to_move(4, moves=30)
    app.begin(session, peeks=False)
    app.tick(clock())
    bots.wait_started()
    app.screen.down(territory_point(app, min(session.movable())))  # refused: it thinks
    clock.advance(SPIN_MS)
    app.tick(clock())
    app.redraw()
    _check_fits(app, size)
    assert app.screen.button("hint").enabled is False  # a computer is to move
    assert "is thinking" in app.screen.toast[0]
    _finish(app, bots)


def _finished_with(seats: list[Seat]) -> Session:
    """A whole random game between ``seats``."""
    rng = random.Random(5)
    state = deal(BOARD, [s.name for s in seats], rng, CHART)
    while not state.is_over:
        state.play(state.random_legal_move(rng.random))
    by_name = {s.name: s for s in seats}
    return Session(state, [by_name[name] for name in state.players])  # a valid table order


def reveal_with_guesses(app) -> None:
    """The reveal of a finished game of a person and three computers, their guesses worked
    out (fake bots). The longest names there are, so that the guesses' line has the least
    room."""
    app.table.bots = Bots()
    app.table.session = session = _finished_with([
        Seat("Maximilianne", "fox"), Seat("Otter (Normal)", "otter", "normal"),
        Seat("Hedgehog (Hard)", "hedgehog", "hard"), Seat("Mouse (Normal)", "mouse", "normal")])
    app.reveal()
    for w in app.table.computers.guesses(session).values():
        assert w.join(WAIT_S)
    app.tick(app.clock())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_reveal_with_guesses_at_every_size(size):
    app, _ = offscreen_app(size)
    reveal_with_guesses(app)
    app.redraw()
    _check_fits(app, size)
    texts = [d.name for d in app.canvas.records if d.kind == "text"]
    assert texts.count("Guessed:") == 3


# ------------------------------------------------------------------ R22 on pixels


def _variants(session, count=4):
    own = tuple(session.to_record()["clans"])
    out = [session]
    for clans in itertools.permutations(CLANS, session.num_seats):
        if clans != own:
            out.append(with_clans(session, clans))
        if len(out) == count:
            break
    return out


def _thinking(app, clock, bots):
    app.tick(clock())
    bots.wait_started()
    clock.advance(SPIN_MS * 3)
    app.tick(clock())


def _refused_tap(app, clock, bots):
    _thinking(app, clock, bots)
    app.screen.down(territory_point(app, min(app.session.movable())))


def _moved(app, clock, bots):
    bots.release.set()
    app.tick(clock())
    worker_done(app)
    app.tick(clock())
    clock.advance(BOT_PAUSE_MS)
    app.tick(clock())
    assert app.screen.anim is not None  # its move is being shown
    clock.advance(200)
    app.tick(clock())


STATES = {"thinking": _thinking, "refused_tap": _refused_tap, "moved": _moved}


@pytest.mark.parametrize("state", sorted(STATES))
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_r22_a_computer_thinking_shows_nothing_of_the_clans(state, size):
    base = computer_to_move(3, seed=1, moves=28)
    pictures, own = set(), set()
    for variant in _variants(base):
        bots = Bots(BlockingBot)
        app, clock = offscreen_app(size)
        app.table.bots = bots
        app.table.session = variant
        app.table.seats = list(variant.seats)
        app.play()
        STATES[state](app, clock, bots)
        app.redraw()
        pictures.add(pygame.image.tobytes(app.surface, "RGB"))
        own.add(bots.seen[0].obs.own_clan)
        _finish(app, bots)
    assert len(pictures) == 1
    assert len(own) > 1  # the bots did hold other clans: the comparison means something
