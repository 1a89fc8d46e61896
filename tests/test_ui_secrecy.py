"""R22 on the shared screen: the same public game with other secret clans gives the same
pixels, on every screen and in every state a family can put it in before the end, except
while one seat holds its own peek."""

from __future__ import annotations

import itertools

import pygame
import pytest

from clans_pi.rules.constants import CLANS
from clans_pi.ui.screens.play import PlayScreen
from tests.bot_fakes import WAIT_S, Bots, ClanBot
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


# ------------------------------------------------------------------ the hint (R22)


def _hint_pixels(session, size, *, held: bool, back: bool = False):
    """The Hint button tapped on the person's turn, the search done (a fake bot whose advice
    follows its clan); the shared screen then (the private hint screen, held or not, or the
    board after Back). Returns (pixels, the app)."""
    app, clock = offscreen_app(size)
    app.table.bots, app.table.hints = Bots(ClanBot), True
    app.table.session = session
    app.table.seats = list(session.seats)
    app.play()
    act(app.screen, "hint")
    assert app.table.computers.hint.worker.join(WAIT_S)
    app.tick(clock())
    if app.screen.name == "hint":
        if held:
            act(app.screen, "hold", True)
        elif back:
            act(app.screen, "done")
    app.redraw()
    return pygame.image.tobytes(app.surface, "RGB"), app


@pytest.mark.parametrize("back", [False, True], ids=["hint_screen", "board_after_back"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_r22_a_hint_not_held_looks_the_same_whatever_the_movers_clan(size, back):
    session = random_session(3, seed=1, moves=28)
    variants = _variants(session)
    hints = {ClanBot(Bots(), 0, "hard").first_move(v.private(v.current_seat))
             for v in variants}
    assert len(hints) > 1  # the advice differs with the clan: the comparison can fail
    pictures = {_hint_pixels(v, size, held=False, back=back)[0] for v in variants}
    assert len(pictures) == 1


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_r22_a_held_hint_shows_the_movers_own_advice(size):
    """The control: held, the hint screen draws the suggested move, so it differs with the
    clan; not held and on the board it is not drawn at all."""
    session = random_session(3, seed=1, moves=28)
    variants = _variants(session)
    pictures = set()
    for v in variants:
        held, app = _hint_pixels(v, size, held=True)
        own = v.private(v.current_seat)
        assert app.screen.name == "hint" and app.screen.seat == v.current_seat
        assert app.screen.shown_hint == ClanBot(Bots(), 0, "hard").first_move(own)
        assert held != _hint_pixels(v, size, held=False)[0]
        pictures.add(held)
    assert len(pictures) > 1
