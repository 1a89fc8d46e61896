"""The past games' list on the touchscreen: reached from the start screen and
back to it as the family left it, newest first, scrolled by dragging to the thousandth game,
a game deleted only after a question, a finished game there at once with the computers'
final guesses kept in its record."""

from __future__ import annotations

import json
import random

import pygame

from clans_pi.history import History
from clans_pi.rules.record import replay
from clans_pi.saving.store import GameStore
from clans_pi.session import Seat, Session
from clans_pi.ui.app import App
from clans_pi.ui.screens.past_games import PastGamesScreen, day_text
from tests.bot_fakes import WAIT_S, Bots
from tests.history_helpers import NOW, family_games
from tests.ui_helpers import BOARD, CHART, FakeClock, act, offscreen_app


def _app(tmp_path, n=0, size=(800, 480)):
    if n:
        family_games(tmp_path / "records", n)
    clock = FakeClock()
    app = App(BOARD, CHART, size=size, rng=random.Random(1), clock=clock, record=True,
              store=GameStore(tmp_path))
    return app, clock


def _texts(app):
    app.redraw()
    return [d.name for d in app.canvas.records if d.kind == "text"]


def _list(app) -> PastGamesScreen:
    act(app.screen, "past_games")
    assert isinstance(app.screen, PastGamesScreen)
    app.screen.now = lambda: NOW
    return app.screen


def test_the_start_screen_offers_the_past_games_only_when_the_table_keeps_them(tmp_path):
    app, _ = offscreen_app()
    app.start_menu()
    assert "past_games" not in [b.name for b in app.screen.buttons]  # nothing is kept
    app, _ = _app(tmp_path)
    app.start_menu()
    assert app.screen.button("past_games").enabled


def test_back_from_the_past_games_is_the_start_screen_as_it_was_left(tmp_path):
    app, _ = _app(tmp_path, 3)
    app.start_menu()
    start = app.screen
    act(start, "players2")
    _list(app)
    act(app.screen, "back")
    assert app.screen is start and start.count == 2


def test_the_list_is_newest_first_with_players_scores_and_winners(tmp_path):
    app, _ = _app(tmp_path, 5)
    app.start_menu()
    screen = _list(app)
    texts = _texts(app)
    games = History(tmp_path / "records", BOARD, CHART).refresh()
    first, second = games[0], games[1]
    assert texts.index("Today") < texts.index(str(first.players[0].score))
    for p in first.players:
        assert p.name in texts
    targets = [d.name for d in app.canvas.records if d.kind == "target"]
    shown = [t.removeprefix("game:") for t in targets if t.startswith("game:")]
    assert shown[:2] == [first.file, second.file]
    assert len(shown) == screen.per_page
    assert "Yesterday" in texts  # the second game ended 20 hours before the first


def test_dragging_scrolls_to_the_last_of_many_games_and_a_tap_is_not_a_drag(tmp_path):
    app, _ = _app(tmp_path, 30)
    app.start_menu()
    screen = _list(app)
    step = screen.row_h + screen.gap
    x = screen.list.centerx
    y = screen.list.bottom - 5
    screen.pointer_down((x, y))
    screen.pointer_move((x, y - 3 * step))  # a finger dragging up three rows
    screen.pointer_up((x, y - 3 * step))
    assert screen.top == 3
    assert isinstance(app.screen, PastGamesScreen)  # a drag opens nothing
    for _ in range(20):
        screen.pointer_down((x, y))
        screen.pointer_move((x, screen.list.top))
        screen.pointer_up((x, screen.list.top))
    assert screen.top == 30 - screen.per_page
    app.redraw()
    targets = [d.name for d in app.canvas.records if d.kind == "target"]
    last = History(tmp_path / "records", BOARD, CHART).refresh()[-1]
    assert f"game:{last.file}" in targets
    screen.key(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEUP))
    assert screen.top == 30 - 2 * screen.per_page


def test_a_game_is_deleted_only_after_the_question(tmp_path):
    app, _ = _app(tmp_path, 4)
    app.start_menu()
    screen = _list(app)
    newest = screen.games[0]
    act(screen, "delete0")
    assert app.screen.name == "confirm"
    assert newest.winners[0] in app.screen.text
    act(app.screen, "confirm_no")
    assert app.screen is screen and (tmp_path / "records" / newest.file).exists()
    act(screen, "delete0")
    act(app.screen, "confirm_yes")
    assert app.screen is screen
    assert not (tmp_path / "records" / newest.file).exists()
    assert [g.file for g in screen.games] == [g.file for g in History(
        tmp_path / "records", BOARD, CHART).refresh()]
    assert len(screen.games) == 3


def test_no_games_yet_says_so(tmp_path):
    app, _ = _app(tmp_path)
    app.start_menu()
    _list(app)
    app.redraw()
    assert [d.name for d in app.canvas.records if d.kind == "paragraph"] == [
        "No finished game yet. Every game played "]  # (a paragraph is noted by its start)
    assert not [d for d in app.canvas.records if d.name.startswith("game:")]


def test_dates():
    assert day_text(NOW, NOW) == "Today"
    assert day_text(NOW.replace(day=24), NOW) == "Yesterday"
    assert day_text(NOW.replace(year=2025, month=3, day=9), NOW) == "9/3/2025"


def test_a_game_finished_at_the_table_is_listed_with_the_computers_guesses(tmp_path):
    """Played to its end and revealed: the record is kept at once, and once the computers'
    final guesses are worked out they join it; the list and its read-right counts follow."""
    app, clock = _app(tmp_path)
    app.table.bots = Bots()
    seats = [Seat("Anna", "fox"), Seat("Owl (Hard)", "owl", "hard"),
             Seat("Bear (Normal)", "bear", "normal")]
    session = Session.new(seats, BOARD, CHART, random.Random(3))
    rng = random.Random(3)
    while not session.is_over:
        m = session.public().legal_moves[int(rng.random() * len(session.public().legal_moves))]
        session.play(m.src, m.dst, m.order)
    app.table.session = session
    app.reveal()
    for w in app.table.computers.guesses(session).values():
        assert w is not None and w.join(WAIT_S)
    app.tick(clock())
    (path,) = (tmp_path / "records").iterdir()
    record = json.loads(path.read_text())
    state = replay(record, BOARD, CHART)
    bys = {g["by"] for g in record["guesses"]}
    assert bys == {state.players.index("Owl (Hard)"), state.players.index("Bear (Normal)")}
    assert all(g["by"] != g["of"] for g in record["guesses"])
    app.start_menu()
    screen = _list(app)
    (game,) = screen.games
    anna = next(p for p in game.players if p.name == "Anna")
    assert anna.guessed == 2  # both computers guessed Anna's clan
    right = sum(g["clan"] == state.clan_of(g["of"]) for g in record["guesses"]
                if g["of"] == state.players.index("Anna"))
    assert anna.read_right == right


def test_the_scoreboard_is_one_tap_from_the_list_and_back(tmp_path):
    app, _ = _app(tmp_path, 6)
    app.start_menu()
    screen = _list(app)
    act(screen, "scoreboard")
    assert app.screen.name == "scoreboard"
    texts = _texts(app)
    for name in {p.name for g in screen.games for p in g.players if p.is_human}:
        assert name in texts
    act(app.screen, "back")
    assert app.screen is screen


def test_a_tap_opens_the_replay_and_back_returns_to_the_list(tmp_path):
    app, _ = _app(tmp_path, 3)
    app.start_menu()
    screen = _list(app)
    game, row = screen.rows[1]
    screen.pointer_down(row.center)
    screen.pointer_up(row.center)
    assert app.screen.name == "past_replay"
    assert app.screen.replay.game == game and app.screen.replay.ply == 0
    act(app.screen, "back")
    assert app.screen is screen


def test_a_record_damaged_after_the_list_was_read_is_said_not_drawn(tmp_path, caplog):
    """A record that no longer replays legally (its first move goes nowhere) opens nothing:
    one notice says so, and the list drops it."""
    app, _ = _app(tmp_path, 3)
    app.start_menu()
    screen = _list(app)
    game, row = screen.rows[0]
    path = tmp_path / "records" / game.file
    record = json.loads(path.read_text())
    record["moves"].insert(0, {"from": 0, "to": 0})  # a move onto itself: not legal
    path.write_text(json.dumps(record))
    screen.pointer_down(row.center)
    screen.pointer_up(row.center)
    assert app.screen is screen
    assert app.notices == ["This game cannot be replayed: its record is damaged."]
    assert any("move 1" in r.getMessage() and game.file in r.getMessage()
               for r in caplog.records)  # what is wrong: in the log, for the maker
    assert game.file not in {g.file for g in screen.games} and len(screen.games) == 2


def test_a_record_deleted_after_the_list_was_read_is_said_so(tmp_path):
    app, _ = _app(tmp_path, 3)
    app.start_menu()
    screen = _list(app)
    game, row = screen.rows[0]
    (tmp_path / "records" / game.file).unlink()
    screen.pointer_down(row.center)
    screen.pointer_up(row.center)
    assert app.screen is screen
    assert app.notices == ["This game is no longer kept on this table."]
    assert len(screen.games) == 2


def test_a_picture_this_version_does_not_know_is_drawn_as_a_default_one(tmp_path):
    """A record kept by another version may name a picture this one lacks: every past
    games' screen draws a default picture instead of failing."""
    from tests.history_helpers import finished_record, write_record

    write_record(tmp_path / "records", finished_record(
        [("Anna", "unicorn", "human"), ("Ben", "bear", "human")], 4), "new.json")
    app, _ = _app(tmp_path)
    app.start_menu()
    screen = _list(app)
    assert "Anna" in _texts(app)
    act(screen, "scoreboard")
    assert "Anna" in _texts(app)
    act(app.screen, "back")
    _game, row = screen.rows[0]
    screen.pointer_down(row.center)
    screen.pointer_up(row.center)
    assert app.screen.name == "past_replay"
    act(app.screen, "strip")  # the players' cards instead of the chart
    assert "Anna" in _texts(app)


def test_the_list_waits_for_the_first_reading_without_freezing(tmp_path):
    """The game reads the records on a thread at start; Past games tapped meanwhile says
    it is reading, asks again on its timer, and shows the games once they are read."""
    app, clock = _app(tmp_path, 3)
    app.start_menu()
    history = app.history
    history._lock.acquire()  # as the start's reading does, still going on
    try:
        screen = _list(app)
        assert screen.reading and screen.games == []
        app.redraw()
        assert [d.name for d in app.canvas.records if d.kind == "paragraph"] == [
            "Reading the past games…"]
        assert screen.wakeup() is not None
        assert not screen.tick(clock())  # still reading
    finally:
        history._lock.release()
    clock.advance(200)
    assert screen.tick(clock()) and not screen.reading and len(screen.games) == 3
    assert screen.wakeup() is None


def test_a_record_with_a_name_of_ten_thousand_characters_is_left_out(tmp_path, caplog):
    """A name no keyboard could type (10,000 letters, or 10,000 combining marks on one
    letter) is refused where the record is read: the list leaves the game out with one log
    line, as for a damaged record, and draws the others."""
    from tests.history_helpers import finished_record, write_record

    paths = family_games(tmp_path / "records", 2)
    for k, name in enumerate(["A" * 10_000, "a" + "\u0301" * 9_999]):
        record = finished_record([("Ann", "fox", "human"), ("Ben", "owl", "human")], 7 + k)
        record["players"] = [name if p == "Ann" else p for p in record["players"]]
        record["table"]["seats"][0]["name"] = name
        write_record(tmp_path / "records", record, f"20200101-00000{k}-{k:010d}.json")
    history = History(tmp_path / "records", BOARD, CHART)
    games = history.refresh()
    assert sorted(g.file for g in games) == sorted(p.name for p in paths)
    said = [r.getMessage() for r in caplog.records if "left out" in r.getMessage()]
    assert len(said) == 2 and all("name is 10000 characters long" in s for s in said), said
    app, _ = _app(tmp_path)
    app.start_menu()
    screen = _list(app)
    texts = _texts(app)
    assert {g.file for g in screen.games} == {p.name for p in paths}
    assert not any(len(t) > 100 for t in texts)
