"""R22 on the shared screen: the same public game with other secret clans gives the same
pixels, on every screen and in every state a family can put it in before the end, except
while one seat holds its own peek."""

from __future__ import annotations

import itertools

import pygame
import pytest

from clans_pi.rules.constants import CLANS
from clans_pi.ui.screens.play import PlayScreen
from tests.ui_helpers import act, offscreen_app, random_session, territory_point, with_clans


def _variants(session, count=4):
    """The session and games identical in public but with other clans for the players."""
    n = session.num_seats
    own = tuple(session.to_record()["clans"])
    out = [session]
    for clans in itertools.permutations(CLANS, n):
        if clans != own:
            out.append(with_clans(session, clans))
        if len(out) == count:
            break
    assert all(v.public().huts == session.public().huts for v in out)
    assert len({tuple(v.to_record()["clans"]) for v in out}) == count
    return out


def _pixels(session, size, prepare) -> bytes:
    app, clock = offscreen_app(size)
    app.table.session = session
    app.table.seats = list(session.seats)
    prepare(app, clock)
    app.redraw()
    return pygame.image.tobytes(app.surface, "RGB")


def _play(app, clock):
    app.play()


def _selected(app, clock):
    app.play()
    src = next(iter(sorted(app.session.movable())))
    app.screen.down(territory_point(app, src))
    app.screen.up(territory_point(app, src))


def _info_and_toast(app, clock):
    app.play()
    app.screen.long_press(territory_point(app, 0))
    app.screen.say("7 or more huts cannot move")


def _order_choice(app, clock):
    app.play()
    screen: PlayScreen = app.screen
    multi = [m for m in app.session.public().legal_moves
             if len(app.session.founds(m.src, m.dst)) >= 2]
    if multi:
        screen.move_huts(multi[0].src, multi[0].dst)
        screen.tap_territory(screen.order.founds[-1])


def _undo_dialog(app, clock):
    app.play()
    app.screen.ask_undo()


def _peek_not_held(app, clock):
    app.peek(1)


def _deal_peek(app, clock):
    app.deal_peek(0)


def _rules(app, clock):
    app.rules(app.play)


STATES = {
    "play": _play,
    "selected": _selected,
    "info_and_toast": _info_and_toast,
    "order_choice": _order_choice,
    "undo_dialog": _undo_dialog,
    "peek_not_held": _peek_not_held,
    "deal_peek": _deal_peek,
    "rules": _rules,
}


@pytest.mark.parametrize("state", sorted(STATES))
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_r22_same_public_game_same_pixels(state, size):
    session = random_session(3, seed=1, moves=28)
    pictures = {_pixels(v, size, STATES[state]) for v in _variants(session)}
    assert len(pictures) == 1


def test_r22_order_choice_state_is_reached():
    """The order-choice case above only means something if the position has such a move."""
    session = random_session(3, seed=1, moves=28)
    assert any(len(session.founds(m.src, m.dst)) >= 2 for m in session.public().legal_moves)


def test_held_peek_shows_only_that_seats_clan():
    """The control: a held peek does differ with the clan, so the comparison above can fail."""
    session = random_session(3, seed=1, moves=28)

    def held(app, clock):
        app.peek(1)
        act(app.screen, "hold", True)

    pictures = {_pixels(v, (800, 480), held) for v in _variants(session)}
    assert len(pictures) > 1
    clans = {v.private(1).own_clan for v in _variants(session)}
    assert len(pictures) == len(clans)
