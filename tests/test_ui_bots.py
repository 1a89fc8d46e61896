"""Computer players on the touchscreen, driven by real pygame events with fake bots: a whole
game of one person against two computers, the thinking indicator while the loop keeps
answering taps, undo / quit / a new game cancelling a search, a failing bot, saving and
resuming, hints, the final guesses, and that a bot only ever sees its own seat's view (R22).
"""

from __future__ import annotations

import logging
import random
import re

import pygame
import pytest

from clans_pi.bots.base import LEVELS
from clans_pi.rules.constants import CLANS
from clans_pi.saving.store import GameStore
from clans_pi.session import COMPUTER_KINDS, HUMAN, SEAT_KINDS, Seat
from clans_pi.table.computers import BOT_PAUSE_MS, HINT_LEVEL
from clans_pi.ui.screens.play import SPIN_MS
from tests.bot_fakes import (
    WAIT_S,
    BlockingBot,
    Bots,
    FirstBot,
    RaisingBot,
    computer_to_move,
    with_kinds,
    worker_done,
)
from tests.ui_helpers import (
    BOARD,
    CHART,
    display_app,
    finger,
    finish_animation,
    finished_session,
    hold,
    press,
    random_session,
    tap,
    tap_move,
    territory_point,
)

SECRET = re.compile(r"\b(red|blue|green|yellow|black|clan)\b", re.IGNORECASE)


def _computer_plays(app, clock) -> None:
    """The computer to move: its search ends, the pause passes, its move is played."""
    ply = app.session.public().ply
    app.pump()
    worker_done(app)
    app.pump()
    assert app.session.public().ply == ply  # not before the pause: people see who moves
    clock.advance(BOT_PAUSE_MS)
    app.pump()
    assert app.session.public().ply == ply + 1


def _person_moves(app, rng) -> None:
    session = app.session
    moves = session.public().legal_moves
    single = [m for m in moves if len(session.founds(m.src, m.dst)) < 2]
    tap_move(app, rng.choice(single or list(moves)))


def _own_views_only(bots: Bots, session) -> None:
    """R22: every view a bot got was its own seat's, with no other player's clan."""
    assert bots.seen
    for seen in bots.seen:
        p = session.player_of(seen.seat)
        assert seen.obs.viewer == p
        assert seen.obs.own_clan == session.public().revealed_clans[p]
        assert seen.obs.revealed_clans is None and seen.obs.scores is None


def _no_threads_left(app) -> None:
    app.table.computers.shutdown()
    assert app.table.computers.threads == []


# ------------------------------------------------------------------ a whole game


def test_seat_kinds_are_the_bots_levels():
    assert COMPUTER_KINDS == LEVELS
    assert (HUMAN, *LEVELS) == SEAT_KINDS
    assert not Seat("Owl (Hard)", "owl", "hard").is_human and Seat("Anna").is_human


def test_one_person_against_two_computers_to_the_reveal(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    bots = Bots()
    rng = random.Random(4)
    with display_app(seed=7) as (app, clock):
        app.table.bots = bots
        app.table.store = GameStore(tmp_path)
        app.start_menu()
        app.pump()
        press(app, "players3")
        press(app, "kind1")
        assert app.screen.seats[1].kind == "easy"
        assert app.screen.seats[1].name == "Owl (Easy)"
        for _ in range(3):
            press(app, "kind2")
        assert app.screen.seats[2].kind == "hard"
        assert app.screen.seats[2].name == "Bear (Hard)"
        press(app, "start")
        assert app.screen.name == "peek" and app.screen.seat == 0  # only the person peeks
        hold(app, clock, app.screen.button("hold").rect.center)
        press(app, "done")
        assert app.screen.name == "play"
        session = app.session
        names = {b.name for b in app.screen.buttons}
        assert "peek0" in names and not {"peek1", "peek2"} & names  # no computer's clan
        refused = 0
        while not session.is_over:
            ply = session.public().ply
            if session.seats[session.current_seat].is_human:
                _person_moves(app, rng)
            else:
                if not refused:  # a person cannot move for a computer
                    app.pump()
                    tap(app, territory_point(app, min(session.movable())))
                    assert app.screen.toast[0].endswith("is thinking: wait for its move")
                    assert app.screen.selected is None and session.public().ply == ply
                    refused += 1
                _computer_plays(app, clock)
            assert session.public().ply == ply + 1
            if not session.is_over:  # saved after every move, seat kinds included
                saved, _ = GameStore(tmp_path).load(BOARD, CHART)
                assert saved.public().moves == session.public().moves
                assert [s.kind for s in saved.seats] == [HUMAN, "easy", "hard"]
            if not session.is_over:
                lines = [r.getMessage() for r in caplog.records]
            finish_animation(app, clock)
        assert [line for line in lines if SECRET.search(line)] == []  # R22, before the end
        assert any("(computer, hard) thinks" in line for line in lines)
        assert app.screen.name == "reveal"
        moves = session.public().moves
        chosen = [s for s in bots.seen if s.call == "choose"]
        assert {s.seat for s in chosen} == {1, 2} and refused == 1
        for seen in chosen:  # each computer move is what its bot chose from its view
            assert moves[seen.obs.ply] == FirstBot(bots, seen.seat, seen.level).first_move(
                seen.obs)
            assert session.seat_of(seen.obs.current_player) == seen.seat
        assert {(s.seat, s.level) for s in chosen} == {(1, "easy"), (2, "hard")}
        for w in app.table.computers.guesses(session).values():
            assert w.join(WAIT_S)
        app.pump()
        _own_views_only(bots, session)
        texts = [d.name for d in app.canvas.records if d.kind == "text"]
        assert texts.count("Guessed:") == 2
        _no_threads_left(app)


# ------------------------------------------------------------------ thinking


def test_thinking_indicator_animates_while_the_loop_answers_taps():
    bots = Bots(BlockingBot)
    with display_app() as (app, clock):
        app.table.bots = bots
        base = random_session(3, moves=20)
        seat = base.current_seat  # a computer, and a person after it
        session = with_kinds(base, tuple(HUMAN if k == (seat + 1) % 3 else "hard"
                                         for k in range(3)))
        app.begin(session, peeks=False)
        app.pump()
        bots.wait_started()
        assert app.table.computers.thinking_seat() == seat
        app.pump()
        spot = app.screen.seat_spot(seat)
        frames = []
        for _ in range(3):
            clock.advance(SPIN_MS)
            assert app.timeout() is not None and app.timeout() <= SPIN_MS
            before = app.partial_frames
            app.pump()
            assert app.partial_frames == before + 1  # the indicator's row alone
            frames.append(pygame.image.tobytes(app.surface.subsurface(spot), "RGB"))
            shown = pygame.image.tobytes(app.surface, "RGB")
            app.full = True
            app.redraw()
            assert pygame.image.tobytes(app.surface, "RGB") == shown  # partial == full
        assert len(set(frames)) == 3
        texts = [d.name for d in app.canvas.records if d.kind in ("text", "paragraph")]
        assert any("thinking about its move" in t for t in texts)
        press(app, "rules")  # the screen stays responsive
        assert app.screen.name == "rules"
        bots.release.set()
        worker_done(app)
        clock.advance(BOT_PAUSE_MS)
        app.pump()
        assert session.public().ply == 20  # its move waits for the board to be back
        press(app, "back")
        assert app.screen.name == "play"
        app.pump()
        clock.advance(BOT_PAUSE_MS)
        app.pump()
        assert session.public().ply == 21
        finish_animation(app, clock)
        assert session.seats[session.current_seat].is_human
        assert app.timeout() is None  # nobody thinks: the loop sleeps until input
        _no_threads_left(app)


def test_a_table_of_computers_only_plays_itself_to_the_reveal():
    """Allowed on purpose: a demonstration (no seat peeks, so nothing secret is shown)."""
    bots = Bots()
    with display_app() as (app, clock):
        app.table.bots = bots
        app.start_menu()
        app.pump()
        press(app, "players2")
        press(app, "kind0")
        press(app, "kind1")
        press(app, "start")
        assert app.screen.name == "play"  # no peeks
        session = app.session
        while not session.is_over:
            _computer_plays(app, clock)
            finish_animation(app, clock)
        assert app.screen.name == "reveal"
        for w in app.table.computers.guesses(session).values():
            assert w.join(WAIT_S)
        _own_views_only(bots, session)
        assert {(s.seat, s.call) for s in bots.seen} >= {(0, "guess"), (1, "guess")}
        _no_threads_left(app)


def test_undo_while_a_computer_thinks_cancels_it_and_it_starts_over():
    bots = Bots(BlockingBot)
    rng = random.Random(1)
    with display_app() as (app, clock):
        app.table.bots = bots
        base = random_session(3, moves=20)
        person = base.current_seat
        session = with_kinds(base, tuple(HUMAN if k == person else "normal" for k in range(3)))
        app.begin(session, peeks=False)
        app.pump()
        _person_moves(app, rng)
        finish_animation(app, clock)
        bots.wait_started()
        cancel, thread = bots.cancels[-1], bots.seen[-1].thread
        assert not cancel.is_set()
        press(app, "undo")
        press(app, "undo_yes")
        assert cancel.is_set()
        thread.join(WAIT_S)
        assert not thread.is_alive()
        assert session.public().ply == 20 and session.current_seat == person
        assert app.table.computers.thinking_seat() is None
        _person_moves(app, rng)  # the computer thinks again, afresh
        finish_animation(app, clock)
        bots.wait_started()
        assert len(bots.cancels) == 2 and not bots.cancels[-1].is_set()
        bots.release.set()
        _computer_plays(app, clock)
        _no_threads_left(app)


@pytest.mark.parametrize("how", ["window", "menu_quit", "menu_new"])
def test_quitting_or_a_new_game_cancels_the_search(how):
    bots = Bots(BlockingBot)
    with display_app() as (app, _clock):
        app.table.bots = bots
        app.begin(computer_to_move(3), peeks=False)
        app.pump()
        bots.wait_started()
        thread = bots.seen[-1].thread
        if how == "window":
            pygame.event.post(pygame.event.Event(pygame.QUIT))
            app.run()  # returns once its searches have ended
            assert not thread.is_alive()
        else:
            press(app, "menu")
            press(app, how)
            thread.join(WAIT_S)
            assert not thread.is_alive()
            assert app.screen.name == ("start" if how == "menu_new" else "play")
            assert not app.running if how == "menu_quit" else app.running
        assert bots.cancels[-1].is_set()
        assert app.table.computers.threads == []


# ------------------------------------------------------------------ trouble


class IllegalBot(FirstBot):
    def choose(self, obs, *, cancel=None):
        self._note("choose", obs)
        return obs.legal_moves[0]._replace(dst=obs.legal_moves[0].src)


@pytest.mark.parametrize("kind", [RaisingBot, IllegalBot])
def test_a_failing_computer_player_makes_a_random_move_with_a_notice(kind, caplog):
    caplog.set_level(logging.DEBUG)
    bots = Bots(kind)
    with display_app() as (app, clock):
        app.table.bots = bots
        session = computer_to_move(3)
        app.begin(session, peeks=False)
        _computer_plays(app, clock)  # the game goes on
        assert app.notice is not None and "could not decide" in app.notice[0]
        assert session.seats[session.seat_of(session.public().current_player - 1)].name \
            in app.notice[0]
        finish_animation(app, clock)
    lines = [r.getMessage() for r in caplog.records]
    assert any("a random legal move instead" in line for line in lines)
    if kind is RaisingBot:
        assert any("RuntimeError at bot_fakes.py:" in line for line in lines)
    assert [line for line in lines if SECRET.search(line)] == []  # R22: no clan named


def test_a_bot_that_cannot_be_made_leaves_random_moves():
    def broken(seat, level):
        raise ValueError("no such level")

    with display_app() as (app, clock):
        app.table.bots = broken
        session = computer_to_move(3)
        app.begin(session, peeks=False)
        app.pump()
        assert app.table.computers.turn.worker is None
        clock.advance(BOT_PAUSE_MS)
        app.pump()
        assert session.public().ply == 21
        assert "cannot think" in app.notice[0]


# ------------------------------------------------------------------ saving


def test_a_saved_game_with_computers_goes_on_after_a_restart(tmp_path):
    session = computer_to_move(4, seed=8)
    GameStore(tmp_path).save(session)
    store = GameStore(tmp_path)
    resumed, problems = store.load(BOARD, CHART)
    assert problems == []
    assert [s.kind for s in resumed.seats] == [s.kind for s in session.seats]
    bots = Bots()
    with display_app() as (app, clock):
        app.table.bots, app.table.store = bots, store
        app.begin(resumed, peeks=False)
        assert app.screen.name == "play"
        _computer_plays(app, clock)  # it simply thinks again
        again, _ = GameStore(tmp_path).load(BOARD, CHART)
        assert again.public().ply == 21
        _no_threads_left(app)


def test_without_bots_a_saved_computer_seat_still_moves():
    """The app may run without computer players (none offered at the start); a resumed game
    whose seats are computers goes on with random moves, quietly."""
    with display_app() as (app, clock):
        session = computer_to_move(3)
        app.begin(session, peeks=False)
        app.pump()
        clock.advance(BOT_PAUSE_MS)
        app.pump()
        assert session.public().ply == 21 and app.notice is None


# ------------------------------------------------------------------ hints


def _person_to_move(n=3):
    base = random_session(n, moves=20)
    person = base.current_seat
    return with_kinds(base, tuple(HUMAN if k == person else "easy" for k in range(n))), person


def test_hints_are_off_by_default():
    with display_app() as (app, _clock):
        app.table.bots = Bots()
        app.begin(_person_to_move()[0], peeks=False)
        assert "hint" not in {b.name for b in app.screen.buttons}
        assert not app.table.computers.can_hint()


def test_a_hint_is_the_search_from_the_persons_own_view():
    """R22: the Hint button opens the mover's private screen; the suggestion (their own
    view's search) is drawn there only while held, never on the shared board."""
    bots = Bots()
    with display_app() as (app, clock):
        app.table.bots, app.table.hints = bots, True
        session, person = _person_to_move()
        app.begin(session, peeks=False)
        app.pump()
        without = pygame.image.tobytes(app.surface, "RGB")
        press(app, "hint")
        assert app.screen.name == "hint" and app.screen.seat == person
        app.table.computers.hint.worker.join(WAIT_S)
        app.pump()
        seen = bots.seen[-1]
        assert (seen.seat, seen.level, seen.call) == (person, HINT_LEVEL, "choose")
        own = session.private(person)
        assert seen.obs == own  # that person's view, nobody else's
        expected = FirstBot(bots, person, HINT_LEVEL).first_move(own)
        texts = [d.name for d in app.canvas.records if d.kind == "text"]
        assert any(session.seats[person].name in t and "looks now" in t for t in texts)
        assert app.screen.shown_hint is None  # not held: not shown
        not_held = pygame.image.tobytes(app.surface, "RGB")
        hold(app, clock, app.screen.button("hold").rect.center, release=False)
        assert app.screen.shown_hint == expected  # held: drawn on the private board
        assert pygame.image.tobytes(app.surface, "RGB") != not_held
        finger(app, pygame.FINGERUP, app.screen.button("hold").rect.center)
        app.pump()
        assert app.screen.shown_hint is None  # gone on release
        assert pygame.image.tobytes(app.surface, "RGB") == not_held
        press(app, "done")
        assert app.screen.name == "play"
        assert pygame.image.tobytes(app.surface, "RGB") == without  # nothing on the board
        assert app.table.computers.hint is not None  # kept for another look
        press(app, "hint")  # the same search again, not a new one
        assert app.screen.name == "hint" and len(bots.seen) == 1
        press(app, "done")
        tap(app, territory_point(app, expected.src))  # following it plays that move
        tap(app, territory_point(app, expected.dst))
        if app.screen.order is not None:
            for t in expected.order[:-1]:
                tap(app, territory_point(app, t))
            press(app, "found")
        assert session.public().moves[-1] == expected._replace(
            order=expected.order if expected.order else None)
        assert app.table.computers.hint is None  # gone with the move
        finish_animation(app, clock)
        _no_threads_left(app)


def test_a_held_hint_says_it_is_searching_then_shows_the_move_when_found():
    bots = Bots(BlockingBot)
    with display_app() as (app, clock):
        app.table.bots, app.table.hints = bots, True
        session, person = _person_to_move()
        app.begin(session, peeks=False)
        app.pump()
        press(app, "hint")
        bots.wait_started()
        spot = app.screen.button("hold").rect.center
        hold(app, clock, spot, release=False)
        texts = [d.name for d in app.canvas.records if d.kind == "text"]
        assert "Looking for your hint…" in texts and app.screen.shown_hint is None
        searching = pygame.image.tobytes(app.surface, "RGB")
        bots.release.set()
        assert app.table.computers.hint.worker.join(WAIT_S)
        app.pump()  # still held: the move appears as soon as it is found
        expected = FirstBot(bots, person, HINT_LEVEL).first_move(session.private(person))
        assert app.screen.shown_hint == expected
        assert pygame.image.tobytes(app.surface, "RGB") != searching
        texts = [d.name for d in app.canvas.records if d.kind == "text"]
        assert "Looking for your hint…" not in texts
        finger(app, pygame.FINGERUP, spot)
        app.pump()
        _no_threads_left(app)


def test_r22_the_hint_button_works_only_on_a_persons_turn():
    """On a computer's turn the Hint button is disabled and a tap on it does nothing; on a
    person's turn it is enabled, and whoever taps it, the hint is for the person to move."""
    bots = Bots(BlockingBot)
    with display_app() as (app, _clock):
        app.table.bots, app.table.hints = bots, True
        app.begin(computer_to_move(3, moves=20), peeks=False)
        app.pump()
        button = app.screen.button("hint")
        assert button.enabled is False
        tap(app, button.rect.center)
        app.show_hint()  # even asked from elsewhere: nothing
        assert app.screen.name == "play" and app.table.computers.hint is None
        bots.release.set()
        _no_threads_left(app)
    with display_app() as (app, _clock):
        app.table.bots, app.table.hints = Bots(), True
        session, person = _person_to_move()
        app.begin(session, peeks=False)
        app.pump()
        assert app.screen.button("hint").enabled
        press(app, "hint")
        assert app.screen.name == "hint" and app.screen.seat == session.current_seat == person
        _no_threads_left(app)


# ------------------------------------------------------------------ the reveal


def test_the_reveal_shows_each_computers_final_guess():
    bots = Bots()
    with display_app() as (app, _clock):
        app.table.bots = bots
        session = with_kinds(finished_session(4), (HUMAN, "hard", "easy", "normal"))
        app.table.session = session
        app.reveal()
        app.pump()
        texts = [d.name for d in app.canvas.records if d.kind == "text"]
        for w in app.table.computers.guesses(session).values():
            assert w.join(WAIT_S)
        app.pump()
        texts = [d.name for d in app.canvas.records if d.kind == "text"]
        assert texts.count("Guessed:") == 3
        # Three others each, the likeliest at 40 %: in words, never a percentage.
        assert texts.count("a guess") == 9 and not [t for t in texts if t.endswith("%")]
        assert {(s.seat, s.call) for s in bots.seen} == {(1, "guess"), (2, "guess"),
                                                         (3, "guess")}
        _own_views_only(bots, session)  # without the reveal's clans
        _no_threads_left(app)


# ------------------------------------------------------------------ seat devices


def test_a_computer_seat_device_never_gets_its_clan():
    from tests.test_ui_devices import _devices

    devices, gpio, hand = _devices()
    with display_app() as (app, _clock):
        app.table.devices, app.table.bots = devices, Bots()
        app.start_menu()
        app.pump()
        press(app, "players3")
        press(app, "kind1")  # seat 2 (a handheld) is a computer
        press(app, "start")
        session = app.session
        assert gpio[0].clans[-1] == session.private(0).own_clan
        assert gpio[2].clans[-1] == session.private(2).own_clan
        assert set(hand[1].clans) == {None}  # R22: nobody may see a computer's clan
        assert app.screen.name == "peek" and app.screen.seat == 0
        app.deal_peek(1)  # after seat 1's peek: seat 2 is a computer, seat 3 peeks next
        assert app.screen.seat == 2
        _no_threads_left(app)


class UnsureBot(FirstBot):
    """Cannot tell the clans apart: every other player evenly over four clans."""

    def guess(self, obs):
        self._note("guess", obs)
        return {p: {c: 0.25 for c in CLANS if c != obs.own_clan}
                for p in range(len(obs.players)) if p != obs.viewer}


def test_an_unsure_guess_shows_a_question_mark_not_a_clan():
    with display_app() as (app, _clock):
        app.table.bots = Bots(UnsureBot)
        session = with_kinds(finished_session(3), (HUMAN, "normal", HUMAN))
        app.table.session = session
        app.reveal()
        for w in app.table.computers.guesses(session).values():
            assert w.join(WAIT_S)
        app.pump()
        texts = [d.name for d in app.canvas.records if d.kind == "text"]
        assert texts.count("?") == 2 and not {"sure", "likely", "a guess"} & set(texts)
        _no_threads_left(app)


def test_undo_after_the_computers_replied_gives_the_person_their_move_back():
    """Undo takes back the person's move and the computers' replies together (else the
    computer would only play its reply again); the dialog says so."""
    bots = Bots()
    rng = random.Random(4)
    with display_app() as (app, clock):
        app.table.bots = bots
        base = random_session(3, moves=20)
        person = base.current_seat
        session = with_kinds(base, tuple(HUMAN if k == person else "easy" for k in range(3)))
        app.begin(session, peeks=False)
        app.pump()
        before = session.public()
        _person_moves(app, rng)
        finish_animation(app, clock)
        for _ in range(2):
            _computer_plays(app, clock)
            finish_animation(app, clock)
        assert session.public().ply == 23 and session.current_seat == person
        press(app, "undo")
        name = session.seats[person].name
        assert app.screen.dialog.text == (f"{name}'s move and the 2 computer moves after it "
                                          f"are taken back; {name} moves again.")
        press(app, "undo_yes")
        assert session.public() == before and session.current_seat == person
        _no_threads_left(app)
