"""Touch that forgives, through real finger events on the play screen: a move
happens when the finger lifts on a lit territory, sliding off cancels, a press held still
shows a territory's huts and never moves, a tap on the chosen huts lets them go, and a
button that comes up under a finger that just lifted ignores that finger's next tap."""

from __future__ import annotations

import pygame
import pytest

from clans_pi.ui.screens.base import DOUBLE_TAP_MS, Screen
from clans_pi.ui.widgets import Button

from .ui_helpers import (
    SIZES,
    display_app,
    finger,
    hold,
    offscreen_app,
    random_session,
    tap,
    territory_point,
)


def _playing(app, *, moves: int = 6):
    app.table.session = random_session(2, seed=3, moves=moves)
    app.table.seats = list(app.table.session.seats)
    app.play()
    app.pump()
    session = app.session
    move = session.public().legal_moves[0]
    return session, move


def test_a_move_happens_when_the_finger_lifts_not_when_it_lands():
    """R6: the huts move into the territory the finger lifts on."""
    with display_app() as (app, _clock):
        session, move = _playing(app)
        tap(app, territory_point(app, move.src))
        assert app.screen.selected == move.src
        ply = session.public().ply
        finger(app, pygame.FINGERDOWN, territory_point(app, move.dst))
        app.pump()
        assert session.public().ply == ply, "the move was played as the finger landed"
        finger(app, pygame.FINGERUP, territory_point(app, move.dst))
        app.pump()
        assert session.public().ply == ply + 1 or app.screen.order is not None


def test_sliding_off_a_lit_territory_before_lifting_cancels():
    with display_app() as (app, _clock):
        session, move = _playing(app)
        tap(app, territory_point(app, move.src))
        ply = session.public().ply
        finger(app, pygame.FINGERDOWN, territory_point(app, move.dst))
        app.pump()
        away = territory_point(app, move.src)
        finger(app, pygame.FINGERMOTION, away)
        app.pump()
        finger(app, pygame.FINGERUP, away)
        app.pump()
        assert session.public().ply == ply and app.screen.order is None
        assert app.screen.selected == move.src  # still chosen: the next tap can move them


def test_holding_a_lit_territory_shows_its_huts_and_never_moves():
    with display_app() as (app, clock):
        session, move = _playing(app)
        tap(app, territory_point(app, move.src))
        ply = session.public().ply
        hold(app, clock, territory_point(app, move.dst))  # held past a long press, let go
        assert app.screen.info == move.dst
        assert session.public().ply == ply
        assert app.screen.selected == move.src  # the huts chosen before stay chosen


def test_holding_movable_huts_shows_them_and_chooses_nothing():
    with display_app() as (app, clock):
        session, move = _playing(app)
        hold(app, clock, territory_point(app, move.src))
        assert app.screen.info == move.src and app.screen.selected is None
        assert session.public().ply == 6


def test_tapping_the_chosen_huts_again_lets_them_go():
    with display_app() as (app, clock):
        _session, move = _playing(app)
        tap(app, territory_point(app, move.src))
        assert app.screen.selected == move.src
        clock.advance(DOUBLE_TAP_MS)
        tap(app, territory_point(app, move.src))
        assert app.screen.selected is None


def test_dragging_huts_onto_a_lit_territory_still_moves_them():
    with display_app() as (app, _clock):
        session, move = _playing(app)
        ply = session.public().ply
        src, dst = territory_point(app, move.src), territory_point(app, move.dst)
        finger(app, pygame.FINGERDOWN, src)
        app.pump()
        mid = ((src[0] + dst[0]) / 2, (src[1] + dst[1]) / 2)
        for pos in (mid, dst):
            finger(app, pygame.FINGERMOTION, pos)
            app.pump()
        finger(app, pygame.FINGERUP, dst)
        app.pump()
        assert session.public().ply == ply + 1 or app.screen.order is not None


class _Swapping(Screen):
    """A screen whose one button, tapped, is replaced by another in the same place."""

    name = "swapping"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.fired: list[str] = []
        self.stage = "first"

    def layout(self) -> None:
        rect = pygame.Rect(100, 100, 200, 80)
        self.buttons = [Button(self.stage, rect, self.stage, self._fire)]

    def _fire(self) -> None:
        self.fired.append(self.stage)
        self.stage = "second"
        self.layout()

    def draw(self, canvas) -> None:
        canvas.fill((0, 0, 0))
        self.draw_buttons(canvas)


def test_a_button_that_came_up_under_a_finger_ignores_its_quick_second_tap():
    with display_app() as (app, clock):
        screen = _Swapping(app)
        app.show(screen)
        tap(app, (200, 140))
        assert screen.fired == ["first"]
        clock.advance(150)
        tap(app, (205, 142))  # the second tap of a double tap
        assert screen.fired == ["first"], "the new button took the double tap"
        clock.advance(DOUBLE_TAP_MS)
        tap(app, (205, 142))  # a tap of its own, later
        assert screen.fired == ["first", "second"]


def test_a_button_there_before_the_lift_takes_a_quick_tap():
    """A quick second tap on a button that was already there (a counter pressed twice)
    still counts: only buttons that came up under the finger wait."""
    with display_app() as (app, clock):
        screen = _Swapping(app)
        screen.stage = "second"
        app.show(screen)
        screen.stage = "second"
        tap(app, (200, 140))
        clock.advance(100)
        tap(app, (200, 140))
        assert screen.fired == ["second", "second"]


def test_a_double_tap_on_found_never_opens_take_back():
    """R11's order choice ends with Found; a second quick tap where it was must not press
    whatever button comes up there (Undo, whose question would follow)."""
    with display_app() as (app, clock):
        app.table.session = random_session(3, seed=1, moves=28)
        app.table.seats = list(app.table.session.seats)
        app.play()
        app.pump()
        session = app.session
        m = next(m for m in session.public().legal_moves
                 if len(session.founds(m.src, m.dst)) >= 2)
        tap(app, territory_point(app, m.src))
        clock.advance(DOUBLE_TAP_MS)
        tap(app, territory_point(app, m.dst))
        for t in app.screen.order.founds[:-1]:
            clock.advance(DOUBLE_TAP_MS)
            tap(app, territory_point(app, t))
        found = app.screen.button("found").rect.center
        ply = session.public().ply
        clock.advance(DOUBLE_TAP_MS)
        tap(app, found)
        assert session.public().ply == ply + 1
        clock.advance(120)
        tap(app, found)
        assert app.screen.name == "play" and app.screen.dialog is None
        assert session.public().ply == ply + 1


def _refused_in_order_choice(app):
    app.table.session = random_session(3, seed=1, moves=28)
    app.table.seats = list(app.table.session.seats)
    app.play()
    screen = app.screen
    session = app.session
    m = next(m for m in session.public().legal_moves if len(session.founds(m.src, m.dst)) >= 2)
    screen.move_huts(m.src, m.dst)
    screen.tap_territory(None)  # "Tap one of the new villages"
    return screen.order.founds


def _refused_in_a_move(app):
    app.table.session = random_session(2, seed=3, moves=6)
    app.table.seats = list(app.table.session.seats)
    app.play()
    screen = app.screen
    move = app.session.public().legal_moves[0]
    screen.tap_territory(move.src)
    blocked = next(t for t in range(len(app.board.territories))
                   if app.session.refusal(t) is not None
                   and t not in app.session.legal_targets(move.src))
    screen.tap_territory(blocked)
    return app.session.legal_targets(move.src)


@pytest.mark.parametrize("size", [*SIZES, (480, 320), (1024, 768)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("case", [_refused_in_order_choice, _refused_in_a_move],
                         ids=["order", "move"])
def test_refusals_and_notices_never_cover_the_board(case, size):
    app, _clock = offscreen_app(size)
    lit = case(app)
    assert app.screen.toast is not None, "nothing was refused"
    app.notify("Ben's handheld is unplugged: Ben peeks on the screen")
    app.redraw()
    regions = {d.name: d.rect for d in app.canvas.records if d.kind == "region"}
    board = app.screen.lay.board
    for name in ("toast", "notice"):
        assert not regions[name].colliderect(board), f"the {name} covers the board"
        assert not regions[name].colliderect(regions["toast" if name == "notice" else
                                                      "notice"])
    assert lit  # the territories the player must tap are all on the board
