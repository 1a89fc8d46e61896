"""The first-game guide's cards: every one fits at every size and points at what it is
about, the same public game with other secret clans draws the same card (R22), every text is
whole, the start screen's switch fits, and the reveal waits for a card about the last move."""

from __future__ import annotations

import random

import pygame
import pytest

from clans_pi.rules.constants import CLANS
from clans_pi.rules.epochs import FAVOURABLE, HOSTILE, NEUTRAL
from clans_pi.rules.moves import Move
from clans_pi.rules.record import replay
from clans_pi.session import Session
from clans_pi.table.guide import TOPICS, Tip
from clans_pi.ui import languages
from clans_pi.ui.guide_texts import tip_text
from clans_pi.ui.layout import scale_for
from tests.test_ui_guide import _expected, _got_it, _guided, _topic
from tests.ui_helpers import (
    BOARD,
    CHART,
    SIZES,
    act,
    display_app,
    finish_animation,
    offscreen_app,
    random_session,
    tap_move,
)

# ------------------------------------------------------------------ every card, every size


def _positions():
    """A seeded 4-player game that meets every topic of the board, its moves, and for each
    topic the number of moves played before its first occurrence."""
    for seed in range(8, 40):
        rng = random.Random(seed)
        full = random_session(4, seed=seed, moves=0)
        moves, found = [], {}
        state = full._state
        while not state.is_over:
            before = state.observation(None)
            m = state.random_legal_move(rng.random)
            state.play(m)
            for topic in _expected(before, state.observation(None), m):
                found.setdefault(topic, len(moves))
            moves.append(m)
        if set(found) == {"big", "village", "strife", "epoch"}:
            return full, moves, found
    raise AssertionError("no seed meets every topic")


FULL, MOVES, FIRST = _positions()


def _at(ply: int, clans: tuple[str, ...] | None = None):
    """FULL after its first ``ply`` moves, with its own or other secret clans."""
    data = FULL.to_record()
    data["moves"] = data["moves"][:ply]
    if clans is not None:
        data["clans"] = list(clans)
    return Session(replay(data, BOARD, CHART), FULL.seats)


def _card_app(size, topic, clans=None):
    """An off-screen app showing the card about ``topic`` (the game with ``clans``)."""
    app, clock = offscreen_app(size)
    _guided(app, None)
    if topic == "end":
        session = _at(len(MOVES), clans)
        session.guide_seen |= {"secret", "move"}
        app.begin(session, peeks=False)
    elif topic in ("secret", "move"):
        session = _at(0, clans)
        if topic == "move":
            session.guide_seen.add("secret")
        app.begin(session, peeks=topic == "secret")
    else:
        session = _at(FIRST[topic], clans)
        session.guide_seen |= set(TOPICS) - {topic}
        app.begin(session, peeks=False)
        m = MOVES[FIRST[topic]]
        app.screen.play_move(m)
        clock.advance(5000)
        app.tick(clock.now)
    app.tick(clock.now)
    assert _topic(app) == topic
    app.redraw()
    return app


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("topic", TOPICS)
def test_every_card_fits_at_every_size(topic, size):
    app = _card_app(size, topic)
    window = app.surface.get_rect()
    records = app.canvas.records
    card = next(d.rect for d in records if d.kind == "region" and d.name == "guide")
    assert window.contains(card)
    for d in records:
        assert window.contains(d.rect), f"{d.kind} {d.name!r} at {d.rect} leaves the window"
        assert d.fits, f"{d.kind} {d.name!r} does not fit its box {d.box}"
        assert not d.missing
    for name in ("guide_ok", "guide_skip"):
        b = app.overlay.button(name)
        assert card.contains(b.rect) and min(b.rect.size) >= 44 * scale_for(size)
    assert app.overlay.text_px >= app.screen.px(16)  # still easy to read
    spots = [d.rect for d in records if d.kind == "region" and d.name == "guide_spot"]
    if topic in ("big", "village", "strife"):
        assert spots and app.overlay.tip.territory is not None
    if topic in ("village", "epoch"):
        assert len(spots) == (2 if topic == "village" else 1)
    for r in spots:
        assert not r.colliderect(card), "the card hides what it points at"


def test_cards_point_at_the_board_and_the_chart():
    app = _card_app((800, 480), "village")
    tip = app.overlay.tip
    bv = app.screen.bv
    circle, column = app.overlay.spots
    assert circle[1].collidepoint(bv.anchors[tip.territory])
    assert app.session.public().villages[0].territory == tip.territory
    assert tip.epoch == 1 and column[1].colliderect(app.screen.chart_rect())


@pytest.mark.parametrize("topic", TOPICS)
def test_r22_a_card_is_the_same_whatever_the_secret_clans(topic):
    own = tuple(FULL.to_record()["clans"])
    others = [c for c in ((CLANS[4], CLANS[3], CLANS[2], CLANS[1]),
                          (CLANS[1], CLANS[0], CLANS[4], CLANS[3])) if c != own]
    pictures = set()
    for clans in [own, *others]:
        app = _card_app((800, 480), topic, clans)
        if topic == "end":  # the card itself: the reveal under it shows the clans (R20)
            app.surface.fill((0, 0, 0))
            app.overlay.draw(app.canvas)
        pictures.add(pygame.image.tobytes(app.surface, "RGB"))
    assert len(pictures) == 1


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("handhelds", [False, True])
def test_the_start_screen_switch_fits(size, handhelds):
    from tests.test_ui_devices import _devices

    app, _clock = offscreen_app(size)
    _guided(app, None)
    if handhelds:
        app.table.devices = _devices()[0]
    app.start_menu()
    act(app.screen, "players4")
    app.redraw()
    names = [b.name for b in app.screen.buttons]
    assert "guide" in names and ("pair" in names) == handhelds
    minimum = 44 * scale_for(size)
    for d in app.canvas.records:
        assert d.fits, f"{d.kind} {d.name!r} does not fit its box {d.box}"
        if d.kind == "target":
            assert min(d.rect.size) >= minimum
    drawn = {d.name for d in app.canvas.records if d.kind == "text"}
    assert "First-game guide: on" in drawn


# ------------------------------------------------------------------ the texts


def test_every_text_is_whole():
    tips = [Tip("secret", "peek", 0), Tip("move", "play", 0, name="Anna"),
            Tip("move", "play", 9, name="Anna"), Tip("big", "play", 9, territory=3, count=8),
            Tip("strife", "play", 9, territory=3, count=0),
            Tip("strife", "play", 9, territory=3, count=1),
            Tip("strife", "play", 9, territory=3, count=3),
            Tip("end", "reveal", 40, reason="no_moves"),
            Tip("end", "reveal", 40, reason="twelfth_village")]
    tips += [Tip("epoch", "play", 9, epoch=e.number) for e in CHART.epochs[1:]]
    effects = set()
    for t in range(len(BOARD.territories)):
        for e in CHART.epochs:
            effects.add(e.effect(BOARD.terrain(t)))
            tips.append(Tip("village", "play", 9, territory=t, epoch=e.number, name="Ben",
                            chip=2, value=4))
    assert effects == {FAVOURABLE, NEUTRAL, HOSTILE}
    texts = {tip_text(tip, BOARD, CHART) for tip in tips}
    for title, body in texts:
        assert title and body and "{" not in body and "}" not in body
    assert {tip.topic for tip in tips} == set(TOPICS)
    assert any("+5 on every terrain" in body for _, body in texts)
    assert any("none was lost" in body for _, body in texts)
    assert any("1 hut left the game" in body for _, body in texts)


@pytest.mark.parametrize("code", ["en", "ja"])
def test_sentences_follow_each_other_as_the_language_writes_them(code):
    # Japanese puts no space after 。; the Latin languages one after the full stop.
    tips = [Tip("move", "play", 0, name="Anna"), Tip("big", "play", 9, territory=3, count=8),
            Tip("strife", "play", 9, territory=3, count=1),
            Tip("end", "reveal", 40, reason="no_moves"),
            Tip("epoch", "play", 9, epoch=2),
            Tip("village", "play", 9, territory=3, epoch=1, name="Ben", chip=2, value=4)]
    assert languages.use(code) is None
    try:
        bodies = [tip_text(tip, BOARD, CHART)[1] for tip in tips]
    finally:
        languages.use("en")
    for body in bodies:
        if code == "ja":
            assert "。" in body and "。 " not in body and ". " not in body
        else:
            assert ". " in body and ".." not in body and "  " not in body


def test_the_reveal_waits_for_the_card_about_the_last_move():
    session = _at(len(MOVES) - 1)
    session.guide_seen |= set(TOPICS) - {"village", "end"}
    last = MOVES[-1]
    with display_app() as (app, clock):
        _guided(app, None)
        app.begin(session, peeks=False)
        app.pump()
        assert app.overlay is None and session.seats[session.current_seat].is_human
        tap_move(app, Move(last.src, last.dst))
        assert session.is_over
        finish_animation(app, clock)
        assert app.screen.name == "play" and _topic(app) == "village"
        for _ in range(3):
            clock.advance(5000)
            app.pump()
        assert app.screen.name == "play"
        _got_it(app)
        app.pump()
        assert app.screen.name == "reveal" and _topic(app) == "end"
