"""The app loop: redraw only when needed, partial redraws that equal full ones, rotation of
picture and touch, long press, refused taps, animations, fullscreen without a cursor."""

from __future__ import annotations

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clans_pi.rules.constants import CLANS
from clans_pi.rules.state import GameState
from clans_pi.session import Seat, Session
from clans_pi.ui.animation import DURATIONS, MAX_STEP_MS, steps_for
from clans_pi.ui.display import Display, logical_size, to_logical, to_physical
from tests.ui_helpers import (
    BOARD,
    CHART,
    display_app,
    finger,
    finish_animation,
    hold,
    press,
    random_session,
    tap,
    territory_point,
)


def _full_picture(app) -> bytes:
    app.full = True
    app.redraw()
    return pygame.image.tobytes(app.surface, "RGB")


def _picture(app) -> bytes:
    return pygame.image.tobytes(app.surface, "RGB")


# ------------------------------------------------------------------ redraw on demand


def test_idle_app_does_not_redraw():
    with display_app() as (app, clock):
        app.table.session = random_session(3)
        app.play()
        app.pump()
        frames = app.frames
        for _ in range(5):
            clock.advance(1000)
            app.pump()
        assert app.frames == frames
        assert app.timeout() is None  # nothing to wake up for: sleep until input
        app.screen.say("that territory is empty")
        assert app.timeout() is not None  # the message has to fade


def test_message_fades_by_itself():
    with display_app() as (app, clock):
        app.table.session = random_session(3)
        app.play()
        app.screen.say("hello")
        app.pump()
        clock.advance(5000)
        app.pump()
        assert app.screen.toast is None


@pytest.mark.parametrize("case", ["button", "select", "drag", "peek_hold"])
def test_partial_redraw_equals_full_redraw(case):
    with display_app() as (app, _clock):
        app.table.session = random_session(3, moves=10)
        app.play()
        app.pump()
        src = min(app.session.movable())
        before = app.partial_frames
        if case == "button":
            app.start_menu()
            app.pump()
            finger(app, pygame.FINGERDOWN, app.screen.button("start").rect.center)
        elif case == "select":
            finger(app, pygame.FINGERDOWN, territory_point(app, src))
        elif case == "drag":
            finger(app, pygame.FINGERDOWN, territory_point(app, src))
            app.pump()
            before = app.partial_frames
            finger(app, pygame.FINGERMOTION, (700, 400))  # off the board: clamped to it
        else:
            app.peek(1)
            app.pump()
            finger(app, pygame.FINGERDOWN, app.screen.button("hold").rect.center)
        app.pump()
        # The held peek darkens the whole screen: a full frame, not a partial one.
        assert app.partial_frames == before + (case != "peek_hold")
        partial = _picture(app)
        assert partial == _full_picture(app)


# ------------------------------------------------------------------ rotation


@given(st.sampled_from([0, 90, 180, 270]), st.integers(0, 799), st.integers(0, 479))
def test_rotation_maps_touch_back_to_the_picture(rotate, x, y):
    logical = (800, 480) if rotate in (0, 180) else (480, 800)
    x, y = x % logical[0], y % logical[1]
    px, py = to_physical((x, y), logical, rotate)
    phys = logical_size(logical, rotate)
    assert 0 <= px < phys[0] and 0 <= py < phys[1]
    assert to_logical((px, py), logical, rotate) == (x, y)


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_rotated_picture_and_touch_agree(rotate):
    display = Display((800, 480), rotate=rotate)
    try:
        assert display.size == (800, 480)
        assert display.window.get_size() == ((480, 800) if rotate in (90, 270) else (800, 480))
        display.surface.fill((0, 0, 0))
        display.surface.fill((255, 0, 0), pygame.Rect(100, 40, 3, 3))
        display.present()
        px, py = to_physical((101, 41), display.size, rotate)
        assert display.window.get_at((round(px), round(py)))[:3] == (255, 0, 0)
        w, h = display.window.get_size()
        assert display.finger_pos(px / w, py / h) == pytest.approx((101, 41), abs=1)
    finally:
        display.close()


def test_taps_on_a_rotated_screen_hit_what_is_drawn():
    with display_app((800, 480), rotate=90) as (app, _clock):
        app.start_menu()
        app.pump()
        press(app, "players2")
        assert app.screen.count == 2
        press(app, "players4", how="mouse")
        assert app.screen.count == 4


def test_fullscreen_hides_the_mouse_cursor():
    display = Display((800, 480), fullscreen=True)
    try:
        assert not pygame.mouse.get_visible()
    finally:
        display.close()
    display = Display((800, 480))
    try:
        assert pygame.mouse.get_visible()
    finally:
        display.close()


# ------------------------------------------------------------------ the board by touch


def test_long_press_shows_exact_huts_and_is_not_a_tap():
    with display_app() as (app, clock):
        app.table.session = random_session(3, moves=30)
        app.play()
        app.pump()
        obs = app.session.public()
        t = max(range(len(obs.huts)), key=lambda k: sum(obs.huts[k]))
        hold(app, clock, territory_point(app, t))
        screen = app.screen
        assert screen.info == t
        assert screen.selected is None or screen.selected == t
        texts = {d.name for d in app.canvas.records if d.kind == "text"}
        for c, n in enumerate(obs.huts[t]):
            if n:
                assert f"{CLANS[c].capitalize()}: {n}" in texts
        tap(app, (5, 5))
        assert screen.info is None


def _big_group_session() -> Session:
    """Territory 0 holds 7 huts; its neighbours hold 1 each (R9: it cannot move)."""
    nbrs = BOARD.neighbors(0)
    huts = {0: {"red": 3, "blue": 2, "green": 2}}
    for k, n in enumerate(nbrs):
        huts[n] = {CLANS[k % 5]: 1}
    state = GameState.from_position(BOARD, CHART, ["Anna", "Ben"], ["red", "blue"], huts)
    return Session(state, [Seat("Anna"), Seat("Ben")])


def test_refused_taps_say_why():
    with display_app() as (app, _clock):
        app.table.session = _big_group_session()
        app.play()
        app.pump()
        tap(app, territory_point(app, 0))
        assert app.screen.toast[0] == "7 or more huts cannot move"  # R9
        assert app.screen.selected is None
        empty = next(t for t, h in enumerate(app.session.public().huts) if not any(h))
        tap(app, territory_point(app, empty))
        assert app.screen.toast[0] == "that territory is empty"  # R8
        texts = {d.name for d in app.canvas.records if d.kind == "text"}
        assert "that territory is empty" in texts


# ------------------------------------------------------------------ animations


def test_every_animation_step_is_short():
    assert max(DURATIONS.values()) <= MAX_STEP_MS == 600
    session = random_session(3, seed=9, moves=0)
    while not session.is_over:
        m = session.public().legal_moves[0]
        for step in steps_for(session.play(m.src, m.dst)):
            assert step.duration <= 600


def test_animation_runs_then_stops_without_a_tap():
    with display_app() as (app, clock):
        app.table.session = random_session(3, moves=5)
        app.play()
        app.pump()
        m = app.session.public().legal_moves[0]
        tap(app, territory_point(app, m.src))
        tap(app, territory_point(app, m.dst))
        if app.screen.order is not None:
            press(app, "found")
        assert app.screen.anim is not None
        assert app.timeout() is not None and app.timeout() <= 20
        frames = app.frames
        clock.advance(100)
        app.pump()
        assert app.frames == frames + 1  # animating: frames keep coming
        finish_animation(app, clock)
        assert app.screen.anim is None
        frames = app.frames
        app.pump()
        assert app.frames == frames


def test_lifting_the_finger_after_a_tap_redraws_nothing():
    with display_app() as (app, _clock):
        app.table.session = random_session(3, moves=10)
        app.play()
        app.pump()
        pos = territory_point(app, min(app.session.movable()))
        finger(app, pygame.FINGERDOWN, pos)
        app.pump()
        frames = app.frames
        finger(app, pygame.FINGERUP, pos)
        app.pump()
        assert app.frames == frames
        assert app.screen.selected == min(app.session.movable())


def test_quit_from_the_menu_and_by_keyboard_and_window():
    with display_app() as (app, _clock):
        app.table.session = random_session(3)
        app.play()
        app.pump()
        press(app, "menu")
        press(app, "menu_back")
        assert app.running and app.screen.dialog is None
        press(app, "menu")
        press(app, "menu_quit")
        assert not app.running
    for event in (pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_LCTRL,
                                     unicode="q", scancode=0),
                  pygame.event.Event(pygame.QUIT)):
        with display_app() as (app, _clock):
            app.start_menu()
            pygame.event.post(event)
            app.pump()
            assert not app.running
