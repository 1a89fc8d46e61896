"""Driving the touchscreen app in tests: a fake clock, real pygame events (finger and mouse)
posted to SDL's queue under the dummy video driver, and games in chosen positions."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from clans_pi.rules.board import load_default_board
from clans_pi.rules.epochs import load_default_chart
from clans_pi.rules.record import replay
from clans_pi.rules.setup import deal
from clans_pi.session import Seat, Session
from clans_pi.ui.app import LONG_PRESS_MS, App
from clans_pi.ui.display import Display, to_physical
from clans_pi.ui.screens.base import DOUBLE_TAP_MS

BOARD = load_default_board()
CHART = load_default_chart()
SIZES = ((800, 480), (1024, 600), (1024, 768), (1280, 800), (720, 1280), (1920, 1080))
NAMES = ("Anna", "Ben", "Cleo", "Dev")
AVATAR_KEYS = ("fox", "owl", "bear", "hare")


class FakeClock:
    """The app's clock, moved by the test (animations and long presses are timed by it)."""

    def __init__(self) -> None:
        self.now = 1000

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@contextmanager
def display_app(size: tuple[int, int] = (800, 480), *, rotate: int = 0,
                seed: int = 1) -> Iterator[tuple[App, FakeClock]]:
    """An App on a real (dummy-driver) display, so events go through SDL's queue."""
    display = Display(size, rotate=rotate)
    clock = FakeClock()
    pygame.event.clear()
    try:
        app = App(BOARD, CHART, display=display, rng=random.Random(seed), clock=clock,
                  record=True)
        yield app, clock
    finally:
        display.close()


def offscreen_app(size: tuple[int, int] = (800, 480), seed: int = 1) -> tuple[App, FakeClock]:
    clock = FakeClock()
    return App(BOARD, CHART, size=size, rng=random.Random(seed), clock=clock, record=True), clock


def seats(n: int) -> list[Seat]:
    return [Seat(NAMES[i], "") for i in range(n)]


def random_session(n: int = 3, *, seed: int = 5, moves: int = 20) -> Session:
    """A game of ``n`` seats after ``moves`` random moves (fewer if it ends first)."""
    rng = random.Random(seed)
    state = deal(BOARD, NAMES[:n], rng, CHART)
    for _ in range(moves):
        if state.is_over:
            break
        state.play(state.random_legal_move(rng.random))
    return Session(state, seats_for(state.players))


def seats_for(players: tuple[str, ...]) -> list[Seat]:
    """Seats in table order for a game whose turn order is ``players``."""
    order = sorted(players, key=NAMES.index)
    return [Seat(name, "") for name in order]


def finished_session(n: int = 3, seed: int = 5) -> Session:
    return random_session(n, seed=seed, moves=10_000)


def with_clans(session: Session, clans: tuple[str, ...]) -> Session:
    """The same game (same deal and moves) with other secret clans for the players."""
    data = session.to_record()
    data["clans"] = list(clans)
    state = replay(data, BOARD, CHART)
    return Session(state, session.seats)


# ------------------------------------------------------------------------------ input


def _physical(app: App, pos: tuple[float, float]) -> tuple[float, float]:
    d = app.display
    if d is None:
        return pos
    return to_physical(pos, d.size, d.rotate)


def _window(app: App) -> tuple[int, int]:
    return app.display.window.get_size() if app.display is not None else app.size


def finger(app: App, kind: int, pos: tuple[float, float], finger_id: int = 0) -> None:
    x, y = _physical(app, pos)
    w, h = _window(app)
    pygame.event.post(pygame.event.Event(kind, x=x / w, y=y / h, dx=0.0, dy=0.0,
                                         finger_id=finger_id, touch_id=1, pressure=1.0))


def mouse(app: App, kind: int, pos: tuple[float, float], *, touch: bool = False) -> None:
    x, y = _physical(app, pos)
    p = (round(x), round(y))
    if kind == pygame.MOUSEMOTION:
        ev = pygame.event.Event(kind, pos=p, rel=(0, 0), buttons=(1, 0, 0), touch=touch)
    else:
        ev = pygame.event.Event(kind, pos=p, button=1, touch=touch)
    pygame.event.post(ev)


def tap(app: App, pos: tuple[float, float], *, how: str = "finger") -> None:
    """A quick tap (down, up) at logical ``pos``, then one loop turn."""
    if how == "finger":
        finger(app, pygame.FINGERDOWN, pos)
        app.pump()
        finger(app, pygame.FINGERUP, pos)
    else:
        mouse(app, pygame.MOUSEBUTTONDOWN, pos)
        app.pump()
        mouse(app, pygame.MOUSEBUTTONUP, pos)
    app.pump()


def hold(app: App, clock: FakeClock, pos: tuple[float, float], ms: int = LONG_PRESS_MS + 50,
         *, release: bool = True) -> None:
    finger(app, pygame.FINGERDOWN, pos)
    app.pump()
    clock.advance(ms)
    app.pump()
    if release:
        finger(app, pygame.FINGERUP, pos)
        app.pump()


def press(app: App, name: str, *, how: str = "finger") -> None:
    """Tap the current screen's button ``name`` (it must be enabled) as a person does: not
    within a double tap of the last tap (a button that came up under a finger ignores a
    second tap that quick, see screens.base.DOUBLE_TAP_MS), so the fake clock moves on to
    the end of that window first when it must."""
    assert app.screen is not None
    b = app.screen.button(name)
    assert b.enabled, f"button {name} is disabled on {app.screen.name}"
    if isinstance(app.clock, FakeClock) and app.last_lift is not None:
        app.clock.advance(max(0, app.last_lift[0] + DOUBLE_TAP_MS - app.clock()))
    tap(app, b.rect.center, how=how)


def act(screen, name: str, *args) -> None:
    """Do what the screen's button ``name`` does, without an event queue (off-screen apps
    and set-ups): the same action a tap on it runs."""
    button = screen.button(name)
    assert button.enabled, f"button {name} is disabled on {screen.name}"
    assert button.action is not None
    button.action(*args)


def territory_point(app: App, t: int) -> tuple[int, int]:
    """A point of territory ``t`` on the play screen that hit-tests to ``t``."""
    return app.screen.bv.touch_point(t)  # type: ignore[union-attr]


def finish_animation(app: App, clock: FakeClock) -> None:
    clock.advance(5000)
    app.pump()


def tap_move(app: App, move) -> None:
    """Play ``move`` by touch: tap its huts, then where they go, then (R11) the villages in
    the order of ``app.screen.order`` as offered, and Found."""
    tap(app, territory_point(app, move.src))
    tap(app, territory_point(app, move.dst))
    if app.screen.order is not None:
        for t in app.screen.order.founds[:-1]:
            tap(app, territory_point(app, t))
        press(app, "found")
