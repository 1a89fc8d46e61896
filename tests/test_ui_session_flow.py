"""A whole game driven through real pygame events, finger and mouse, from the start screen to
the final reveal: names by picture and keyboard, the private peeks of the deal (R6, R22),
moves by tap and by drag (R8), a refused tap, undo with confirmation, a multi-village order
choice (R11), a peek during the game, the reveal (R20, R21) and a rematch."""

from __future__ import annotations

import random

import pygame

from clans_pi.rules.moves import Move
from clans_pi.ui.avatars import AVATARS
from clans_pi.ui.screens.peek import SEEN_MS
from clans_pi.ui.theme import CLAN_COLORS
from tests.ui_helpers import display_app as _display_app
from tests.ui_helpers import (
    finger,
    finish_animation,
    hold,
    mouse,
    press,
    tap,
    territory_point,
)


def _peek_all(app, clock, seen: dict[int, str]) -> None:
    """Walk the deal's peeks: each seat holds, sees its own clan, lets go, confirms."""
    while app.screen.name == "peek":
        screen = app.screen
        assert not screen.button("done").enabled  # one look first
        r = screen.button("hold").rect
        corner = screen.swatch_rect().move(4, 4).topleft
        finger(app, pygame.FINGERDOWN, r.center)
        app.pump()
        clan = app.session.private(screen.seat).own_clan
        assert app.surface.get_at(corner)[:3] == CLAN_COLORS[clan]
        seen[screen.seat] = clan
        clock.advance(SEEN_MS)  # a look, not a quick tap
        finger(app, pygame.FINGERUP, r.center)
        app.pump()
        assert app.surface.get_at(corner)[:3] != CLAN_COLORS[clan]  # hidden again
        press(app, "done")


def _choose_move(app, rng: random.Random, want_order: bool) -> Move:
    session = app.session
    moves = list(session.public().legal_moves)
    if want_order:
        multi = [m for m in moves if len(session.founds(m.src, m.dst)) >= 2]
        if multi:
            return multi[0]
    return rng.choice(moves)


def test_whole_game_by_touch_and_mouse():
    rng = random.Random(11)
    with _display_app((800, 480), seed=3) as (app, clock):
        app.start_menu()
        app.pump()
        assert app.screen.name == "start"
        press(app, "players3", how="mouse")
        assert len(app.screen.seats) == 3

        # Seat 1 types a name on the on-screen keyboard.
        press(app, "seat0")
        assert app.screen.name == "names"
        press(app, "mode")
        press(app, "key_clear")
        for ch in "JOE":
            press(app, f"key_{ch}", how="mouse" if ch == "O" else "finger")
        press(app, "ok")
        assert app.screen.name == "start"
        assert app.screen.seats[0].name == "Joe"

        # Seat 2 picks a picture not taken by another seat; it brings its name.
        used = {s.avatar for s in app.screen.seats}
        taken = app.screen.seats[2].avatar
        press(app, "seat1")
        free = next(a for a in AVATARS if a.key not in used)
        assert not app.screen.button(f"avatar_{taken}").enabled
        press(app, f"avatar_{free.key}")
        press(app, "ok")
        assert app.screen.seats[1] .name == free.name

        press(app, "start")
        seen: dict[int, str] = {}
        _peek_all(app, clock, seen)
        assert app.screen.name == "play"
        assert len(seen) == 3
        session = app.session
        assert [s.name for s in session.seats][:2] == ["Joe", free.name]

        orders = undos = peeks = drags = 0
        turn = 0
        while not session.is_over:
            assert app.screen.name == "play"
            if turn == 2:  # a refused tap says why and changes nothing
                obs = session.public()
                empty = next(t for t, h in enumerate(obs.huts) if not any(h))
                tap(app, territory_point(app, empty))
                assert app.screen.toast[0] == "that territory is empty"
                assert session.public().ply == obs.ply
            move = _choose_move(app, rng, want_order=orders == 0)
            src, dst = territory_point(app, move.src), territory_point(app, move.dst)
            how = "mouse" if turn % 2 else "finger"
            if turn == 3:  # drag the huts onto the target
                finger(app, pygame.FINGERDOWN, src)
                app.pump()
                finger(app, pygame.FINGERMOTION, dst)
                app.pump()
                finger(app, pygame.FINGERUP, dst)
                app.pump()
                drags += 1
            else:
                tap(app, src, how=how)
                assert app.screen.selected == move.src
                tap(app, dst, how=how)
            if app.screen.order is not None:
                founds = app.screen.order.founds
                wanted = list(reversed(founds))
                assert not app.screen.button("found").enabled
                for t in wanted[:-1]:
                    tap(app, territory_point(app, t))
                press(app, "found")
                assert session.public().moves[-1].order == tuple(wanted)
                orders += 1
            last = session.public().moves[-1]
            assert (last.src, last.dst) == (move.src, move.dst)
            if turn == 1:
                tap(app, (5, 5))  # a tap skips the animation
                assert app.screen.anim is None
            else:
                finish_animation(app, clock)
            if turn == 4 and not session.is_over:
                before = session.public().ply
                press(app, "undo")
                press(app, "undo_no")
                assert session.public().ply == before
                press(app, "undo", how="mouse")
                press(app, "undo_yes")
                assert session.public().ply == before - 1
                assert not app.screen.button("undo").enabled  # one step back only
                undos += 1
            if turn == 6 and not session.is_over:
                seat = (session.current_seat + 1) % session.num_seats
                press(app, f"peek{seat}")
                assert app.screen.name == "peek" and app.screen.seat == seat
                hold(app, clock, app.screen.button("hold").rect.center)
                press(app, "done")
                assert app.screen.name == "play"
                peeks += 1
            turn += 1
            app.pump()
        assert orders >= 1 and (undos, peeks, drags) == (1, 1, 1)

        assert app.screen.name == "reveal"
        obs = session.public()
        assert obs.revealed_clans is not None
        for seat, clan in seen.items():
            assert obs.revealed_clans[session.player_of(seat)] == clan
        press(app, "rematch", how="mouse")
        assert app.screen.name == "peek"
        assert app.session is not session
        assert [s.name for s in app.session.seats] == [s.name for s in session.seats]


def test_touch_gives_one_tap_not_two():
    """A finger also makes a synthetic mouse event marked as touch: it must be ignored."""
    with _display_app() as (app, _clock):
        app.start_menu()
        app.pump()
        r = app.screen.button("players4").rect
        finger(app, pygame.FINGERDOWN, r.center)
        mouse(app, pygame.MOUSEBUTTONDOWN, r.center, touch=True)
        app.pump()
        finger(app, pygame.FINGERUP, r.center)
        mouse(app, pygame.MOUSEBUTTONUP, r.center, touch=True)
        app.pump()
        assert app.screen.count == 4
        # A synthetic mouse click alone does nothing; a real one works.
        r2 = app.screen.button("players2").rect
        mouse(app, pygame.MOUSEBUTTONDOWN, r2.center, touch=True)
        mouse(app, pygame.MOUSEBUTTONUP, r2.center, touch=True)
        app.pump()
        assert app.screen.count == 4
        tap(app, r2.center, how="mouse")
        assert app.screen.count == 2
