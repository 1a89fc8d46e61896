"""The private peek kept private on one shared screen (R22): while held, the
screen is dark but for a small swatch of the clan one person at arm's length reads; a quick
tap does not count as a look; the closed eye reads as an eye struck through."""

from __future__ import annotations

import pygame
import pytest

from clans_pi.ui.clan_look import DEFAULT_LOOK
from clans_pi.ui.icons import draw_eye
from clans_pi.ui.screens.peek import DARK, SEEN_MS

from .ui_helpers import (
    SIZES,
    act,
    display_app,
    finger,
    offscreen_app,
    random_session,
    with_clans,
)


def _peek(size, clans=None, seat=1):
    app, clock = offscreen_app(size)
    session = random_session(4, moves=3)
    if clans is not None:
        session = with_clans(session, clans)
    app.table.session = session
    app.table.seats = list(session.seats)
    app.peek(seat)
    return app, clock


@pytest.mark.parametrize("size", [*SIZES, (480, 320), (1024, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_held_peek_darkens_the_screen_but_for_a_small_swatch(size):
    app, _clock = _peek(size)
    act(app.screen, "hold", True)
    app.redraw()
    clan = app.session.private(1).own_clan
    color = DEFAULT_LOOK.color(clan)
    surf = app.surface
    w, h = size
    sample = [surf.get_at((x, y))[:3] for x in range(0, w, 3) for y in range(0, h, 3)]
    colored = sum(c == color for c in sample) / len(sample)
    lit = sum(max(abs(a - b) for a, b in zip(c, DARK, strict=True)) > 24 for c in sample)
    assert colored < 0.03, f"{colored:.1%} of the screen is the clan's colour"
    assert lit / len(sample) < 0.06, f"{lit / len(sample):.1%} of the screen is lit"
    swatch = next(d.rect for d in app.canvas.records if d.kind == "region" and d.name == "swatch")
    assert 56 <= swatch.width <= 0.2 * min(size) + 40  # small, but a mark one person reads
    assert surf.get_at(swatch.center)[:3] != DARK
    words = " ".join(d.name for d in app.canvas.records if d.kind == "text")
    assert DEFAULT_LOOK.label(clan) in words


def test_the_held_peek_differs_between_clans_only_in_the_swatch_and_its_name():
    """R22: what the table across sees of a held peek (everything but the swatch and its
    line of text) is the same whatever the clan."""
    pictures = []
    for clans in (("red", "blue", "green", "yellow"), ("green", "yellow", "red", "blue")):
        app, _ = _peek((800, 480), clans)
        act(app.screen, "hold", True)
        app.redraw()
        swatch = next(d.rect for d in app.canvas.records if d.kind == "region"
                      and d.name == "swatch")
        surf = app.surface.copy()
        keep_out = pygame.Rect(0, swatch.top, 800, swatch.height + 60)
        surf.fill((0, 0, 0), keep_out)
        pictures.append(pygame.image.tobytes(surf, "RGB"))
    assert pictures[0] == pictures[1]


@pytest.mark.parametrize(("held_ms", "counts"), [(150, False), (SEEN_MS - 10, False),
                                                 (SEEN_MS, True), (1500, True)])
def test_a_quick_tap_does_not_count_as_seen(held_ms, counts):
    with display_app() as (app, clock):
        app.new_game(random_session(3, moves=0).seats)
        app.pump()
        assert app.screen.name == "peek" and app.screen.deal
        spot = app.screen.button("hold").rect.center
        finger(app, pygame.FINGERDOWN, spot)
        app.pump()
        clock.advance(held_ms)
        app.pump()
        finger(app, pygame.FINGERUP, spot)
        app.pump()
        assert app.screen.button("done").enabled is counts
        assert app.screen.seen is counts


def test_holding_darkens_the_whole_screen_not_only_the_card():
    """The press redraws everything (a partial redraw of the card alone would leave the
    title and the button lit around it)."""
    with display_app() as (app, _clock):
        app.new_game(random_session(3, moves=0).seats)
        app.pump()
        spot = app.screen.button("hold").rect.center
        finger(app, pygame.FINGERDOWN, spot)
        app.pump()
        assert app.surface.get_at((5, 5))[:3] == DARK
        assert app.surface.get_at(app.screen.button("done").rect.center)[:3] == DARK
        finger(app, pygame.FINGERUP, spot)
        app.pump()
        assert app.surface.get_at((5, 5))[:3] != DARK


def test_the_closed_eye_is_the_open_eye_struck_through():
    """A closed eye drawn as a lone lid with lashes read as a grin: hidden is the eye itself
    with a stroke across it, so both share the eye's outline."""
    side = 96
    open_, closed = (pygame.Surface((side, side)) for _ in range(2))
    draw_eye(open_, open_.get_rect(), (255, 255, 255))
    draw_eye(closed, closed.get_rect(), (255, 255, 255), closed=True)
    ink = {name: {(x, y) for x in range(side) for y in range(side)
                  if s.get_at((x, y))[0] > 128}
           for name, s in (("open", open_), ("closed", closed))}
    assert ink["open"] < ink["closed"]  # everything of the open eye, and more
    stroke = ink["closed"] - ink["open"]
    # the stroke crosses from upper left to lower right, outside the eye's outline too
    assert any(x < side * 0.3 and y < side * 0.3 for x, y in stroke)
    assert any(x > side * 0.7 and y > side * 0.7 for x, y in stroke)
