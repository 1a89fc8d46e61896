"""The replay screen of a past game, driven through its buttons: every move it
shows is the engine's position after that many moves; epoch steps land on epoch starts
(R16); it plays at a chosen speed by the app's clock and stops at the end; its result is
that game's (R20, R21)."""

from __future__ import annotations

import pygame
import pytest

from clans_pi.history.replay import GameReplay
from clans_pi.rules.record import replay
from clans_pi.ui.screens.past_replay import SPEEDS, ReplayScreen
from clans_pi.ui.screens.past_result import PastResultScreen
from tests.test_history_replay import GAMES, first_moves, record_of, same_position
from tests.ui_helpers import BOARD, CHART, SIZES, act, finished_session, offscreen_app


def open_replay(n: int = 4, seed: int = 7, size: tuple[int, int] = (800, 480), *,
                record: dict | None = None):
    app, clock = offscreen_app(size)
    app.table.seats = []
    data = record if record is not None else record_of(n, seed)
    left = []
    screen = ReplayScreen(app, GameReplay(data, "x.json", BOARD, CHART),
                          back=lambda: left.append(True))
    app.show(screen)
    assert screen.reading.wait(60)  # the chart of how well they hid: no ring to turn
    return app, clock, screen, data, left


def texts(app) -> list[str]:
    app.redraw()
    return [d.name for d in app.canvas.records if d.kind == "text"]


def enabled(screen, name: str) -> bool:
    return screen.button(name).enabled


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}p")
def test_every_move_forward_and_back_shows_the_engines_position(game):
    app, _clock, screen, data, _left = open_replay(*game)
    total = screen.replay.total
    seen = [screen.obs]
    while enabled(screen, "move_next"):
        act(screen, "move_next")
        seen.append(screen.obs)
    assert len(seen) == total + 1 and screen.replay.at_end
    for k, obs in enumerate(seen):
        same_position(obs, replay(first_moves(data, k), BOARD, CHART).observation(None))
    assert f"Move {total} of {total}" in texts(app)
    while enabled(screen, "move_back"):
        act(screen, "move_back")
        k = screen.replay.ply
        same_position(screen.obs, seen[k])
        if k % 10 == 0:
            assert f"Move {k} of {total}" in texts(app)
    assert screen.replay.ply == 0


def test_the_players_row_shows_each_seats_clan_points_and_chips_at_the_move_shown():
    app, _clock, screen, data, _left = open_replay(3, 5)
    start = screen.replay.epoch_starts[2]
    screen.replay.go(start)
    obs = screen.obs
    act(screen, "strip")  # the players' cards instead of the chart of how well they hid
    app.redraw()
    for k, (p, card) in enumerate(zip(screen.game.players, screen.seat_cards(), strict=True)):
        inside = [d.name for d in app.canvas.records
                  if d.kind in ("text", "count") and card.contains(d.rect)]
        chips = obs.chips[screen.replay.final.player_of(k)]
        assert inside[:2] == [p.name, str(obs.clan_points[p.clan])]
        assert inside[-1] == str(chips)  # drawn on the chip
    mover = screen.replay.mover()
    before = replay(first_moves(data, start - 1), BOARD, CHART)
    assert screen.game.players[mover].name == before.players[before.current_player]


def test_epoch_steps_land_on_epoch_starts_R16():
    _app, _clock, screen, _data, _left = open_replay(4, 7)
    rp = screen.replay
    landed = []
    while enabled(screen, "epoch_next"):
        act(screen, "epoch_next")
        landed.append(rp.ply)
        if not rp.at_end:
            assert rp.view().epoch != rp.go(rp.ply - 1).epoch  # a new epoch begins here
            rp.go(landed[-1])
    assert landed == sorted(set(rp.epoch_starts[1:]) | {rp.total})
    act(screen, "move_back")
    here = rp.ply
    act(screen, "epoch_back")  # to where the epoch shown began, or the one before
    assert rp.ply == max(k for k in rp.epoch_starts if k < here)
    while enabled(screen, "epoch_back"):
        act(screen, "epoch_back")
    assert rp.ply == 0


def test_back_from_the_start_and_forward_from_the_end_stay_put():
    app, _clock, screen, _data, _left = open_replay(2, 3)
    rp = screen.replay
    assert not enabled(screen, "move_back") and not enabled(screen, "epoch_back")
    for name in ("move_back", "epoch_back"):  # a tap on a step that is off does nothing
        pos = screen.button(name).rect.center
        screen.pointer_down(pos)
        screen.pointer_up(pos)
    screen.step(-1)
    screen.epoch_step(False)
    screen.key(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT))
    assert rp.ply == 0
    act(screen, "epoch_next")
    while enabled(screen, "epoch_next"):
        act(screen, "epoch_next")
    assert rp.at_end
    assert not enabled(screen, "move_next")
    screen.step(1)
    screen.epoch_step(True)
    screen.key(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT))
    assert rp.at_end and rp.ply == rp.total
    assert "Game over" in texts(app)


def test_play_shows_a_move_each_interval_of_the_app_clock_and_stops_at_the_end():
    app, clock, screen, _data, _left = open_replay(3, 5)
    rp = screen.replay
    rp.go(rp.total - 3)
    screen.layout()
    act(screen, "play")
    assert screen.playing and screen.wakeup() == clock() + SPEEDS[0][0]
    assert "pause" in [b.name for b in screen.buttons]
    clock.advance(SPEEDS[0][0] - 1)
    app.tick(clock())
    assert rp.ply == rp.total - 3
    clock.advance(1)
    app.tick(clock())
    assert rp.ply == rp.total - 2
    for _ in range(2):
        clock.advance(SPEEDS[0][0])
        app.tick(clock())
    assert rp.at_end and not screen.playing and screen.wakeup() is None
    names = [b.name for b in screen.buttons]
    assert "result" in names and "play" not in names and "pause" not in names
    clock.advance(10_000)
    app.tick(clock())
    assert rp.ply == rp.total


def test_the_speed_button_cycles_and_the_faster_speed_plays_faster():
    app, clock, screen, _data, _left = open_replay(2, 3)
    rp = screen.replay
    labels = []
    for _ in SPEEDS:
        labels.append(screen.button("speed").label)
        act(screen, "speed")
    assert labels == ["1\u00d7", "2\u00d7", "4\u00d7"]  # 1x, 2x, 4x
    assert screen.button("speed").label == "1\u00d7"  # round again to the slowest
    act(screen, "speed")
    act(screen, "speed")
    assert screen.interval == 250
    act(screen, "play")
    for k in range(1, 5):
        clock.advance(250)
        app.tick(clock())
        assert rp.ply == k
    act(screen, "speed")  # while playing: from now on a move a second
    assert screen.playing and screen.interval == 1000
    clock.advance(999)
    app.tick(clock())
    assert rp.ply == 4
    clock.advance(1)
    app.tick(clock())
    assert rp.ply == 5


def test_pause_and_a_step_by_hand_stop_playing():
    app, clock, screen, _data, _left = open_replay(4, 7)
    rp = screen.replay
    act(screen, "play")
    clock.advance(1000)
    app.tick(clock())
    assert rp.ply == 1
    act(screen, "pause")
    assert not screen.playing and screen.wakeup() is None
    clock.advance(5000)
    app.tick(clock())
    assert rp.ply == 1
    act(screen, "play")
    act(screen, "move_next")
    assert not screen.playing and rp.ply == 2
    clock.advance(5000)
    app.tick(clock())
    assert rp.ply == 2
    screen.key(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
    assert screen.playing
    screen.key(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
    assert not screen.playing


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}p")
def test_the_result_at_the_end_shows_that_games_winners_and_comes_back(game):
    app, _clock, screen, _data, _left = open_replay(*game)
    rp = screen.replay
    assert "result" not in [b.name for b in screen.buttons]
    while enabled(screen, "epoch_next"):
        act(screen, "epoch_next")
    act(screen, "result")
    result = app.screen
    assert isinstance(result, PastResultScreen)
    drawn = texts(app)
    winners = rp.game.winners
    assert winners and all(w in drawn for w in winners)
    headline = drawn[0]
    assert all(w in headline for w in winners)
    losers = [p.name for p in rp.game.players if not p.winner]
    assert not any(name in headline for name in losers)
    for p in rp.game.players:
        assert str(p.score) in drawn and str(p.clan_points) in drawn
    reason = {"twelfth_village": "The twelfth village is founded. The clans are:",
              "no_moves": "No move is left. The clans are:"}[rp.game.end]
    assert reason in drawn
    act(result, "back")
    assert app.screen is screen and rp.at_end
    act(screen, "result")
    app.screen.back()  # Escape
    assert app.screen is screen


def test_the_result_says_how_the_computers_guessed_each_player():
    data = record_of(3, 5)
    clans = data["clans"]
    wrong = next(c for c in ("red", "blue", "green", "yellow", "black") if c != clans[0])
    data["guesses"] = [{"by": 1, "of": 0, "clan": clans[0], "weight": 0.9},
                       {"by": 2, "of": 0, "clan": wrong, "weight": 0.5}]
    app, _clock, screen, _data, _left = open_replay(record=data)
    screen.replay.go(screen.replay.total)
    screen.layout()
    act(screen, "result")
    drawn = texts(app)
    assert "1 of 2 computer players guessed this clan right" in drawn
    assert sum("guessed this clan" in t for t in drawn) == 1


def test_back_leaves_for_the_list_and_stops_playing():
    _app, _clock, screen, _data, left = open_replay(2, 3)
    act(screen, "play")
    act(screen, "back")
    assert left == [True] and not screen.playing
    screen.back()  # Escape
    assert left == [True, True]


@pytest.mark.parametrize("size", (*SIZES, (480, 320), (480, 480), (480, 640), (600, 700)),
                         ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("which", ("past_result", "reveal"))
def test_the_results_rows_stay_above_the_buttons(which, size):
    """Four players' rows and the buttons under them (also the live game's reveal, whose
    table the past result shares), at every size."""
    app, _clock = offscreen_app(size)
    app.table.seats = []
    if which == "reveal":
        app.table.session = finished_session(4)
        app.reveal()
    else:
        rp = GameReplay(record_of(4, 7), "x.json", BOARD, CHART)
        app.show(PastResultScreen(app, rp, back=app.start_menu))
    app.redraw()
    rows = [d.rect for d in app.canvas.records if d.kind == "region" and d.name[:3] == "row"]
    assert len(rows) == 4
    for b in app.screen.buttons:
        if b.name.startswith("hiding"):  # a row's chart of how well they hid: a cell of it
            assert sum(r.contains(b.rect) for r in rows) == 1
            continue
        assert not any(r.colliderect(b.rect) for r in rows), f"a row runs under {b.name}"


def test_a_late_loop_turn_shows_one_move_not_a_burst():
    app, clock, screen, _data, _left = open_replay(2, 3)
    act(screen, "play")
    clock.advance(3500)  # the loop was held up for three and a half intervals
    app.tick(clock())
    assert screen.replay.ply == 1
    assert screen.wakeup() == clock() + 1000
    app.tick(clock())
    assert screen.replay.ply == 1
