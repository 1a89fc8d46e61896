"""The scoreboard screen: the standings' figures as drawn, the period switch,
dragging the rows, and merging a renamed person's names through the screens' buttons."""

from __future__ import annotations

import errno

import pygame
import pytest

from clans_pi.history import recent_since, scoreboard
from clans_pi.ui.canvas import LEAST_PX
from clans_pi.ui.screens.confirm import ConfirmScreen
from clans_pi.ui.screens.merge_names import MergeNamesScreen, cannot_merge
from clans_pi.ui.screens.scoreboard import (
    COLUMNS,
    ScoreboardScreen,
    decimal,
    figure,
    ranks,
    read_right_text,
    wins_text,
)
from tests.history_helpers import family, history, person, seed_where, write_game
from tests.ui_helpers import display_app, finger, offscreen_app


@pytest.fixture
def family_history(tmp_path):
    return family(tmp_path / "records")


def _open(history, size=(800, 480)):
    app, _clock = offscreen_app(size)
    left = []
    screen = ScoreboardScreen(app, history, back=lambda: left.append(True))
    app.show(screen)
    app.redraw()
    return app, screen, left


def _texts(app):
    return [d for d in app.canvas.records if d.kind == "text"]


def _drawn_rows(app, screen):
    """The texts drawn in each row of the table, left to right, by row from the top."""
    t = screen.table
    rows: dict[int, list] = {}
    for d in _texts(app):
        if t.body.collidepoint(d.rect.center):
            k = (d.rect.centery - t.body.top + screen.scroll.offset) // t.row_h
            rows.setdefault(k, []).append(d)
    return {k: [d.name for d in sorted(ds, key=lambda d: d.rect.left)]
            for k, ds in rows.items()}


def _redraw(app):
    app.canvas.records.clear()
    app.redraw()


def test_figures_read_as_a_family_says_them():
    """R21: a shared win is a share of a win."""
    assert [wins_text(w) for w in (0, 3.0, 0.5, 2.5, 1 + 1 / 3)] == ["0", "3", "½", "2½", "1.3"]
    assert decimal(28.25) == "28.2" or decimal(28.25) == "28.3"
    assert ranks([_standing(2, 30), _standing(1, 28), _standing(1, 28), _standing(0, 20)]) \
        == [1, 2, 2, 4]
    assert read_right_text(_standing(1, 20, right=3, guessed=5)) == "3 of 5"
    assert read_right_text(_standing(1, 20)) == "—"


def _standing(wins, average, right=0, guessed=0):
    from clans_pi.history import Standing

    return Standing("X", "human", "", 4, wins, average, 40, right, guessed)


@pytest.mark.parametrize("size", [(1920, 1080), (800, 480)], ids=str)
def test_the_screen_shows_the_standings_figures(family_history, size):
    """Every visible row: its place, name and figures, in the standings' order (R20, R21)."""
    app, screen, _ = _open(family_history, size)
    standings = scoreboard(family_history.games)
    places = ranks(standings)
    assert [c for c, _l, _w in screen.table.columns] == [
        "wins", "games", "average", "best", "read"]
    texts = {d.name for d in _texts(app)}
    assert {"Scoreboard", "Wins", "Games", "Average", "Best", "Read right",
            "12 games"} <= texts
    drawn = _drawn_rows(app, screen)
    screen.scroll_by(len(standings))  # the rest
    _redraw(app)
    drawn |= _drawn_rows(app, screen)
    assert sorted(drawn) == list(range(len(standings)))
    for k, cells in drawn.items():
        s = standings[k]
        assert cells == [str(places[k]), s.name,
                         *(figure(s, c) for c, _l, _w in screen.table.columns)]


def test_the_period_switch_shows_the_last_30_days(family_history):
    app, screen, _ = _open(family_history, (1280, 800))
    every = _drawn_rows(app, screen)
    screen.button("period_recent").action()
    _redraw(app)
    recent = scoreboard(family_history.games, since=recent_since())
    drawn = _drawn_rows(app, screen)
    assert [cells[1] for _k, cells in sorted(drawn.items())] == [
        s.name for s in recent][:len(drawn)]
    assert drawn != every
    games = sum(g.date >= recent_since() for g in family_history.games)
    assert 0 < games < 12
    assert f"{games} games" in {d.name for d in _texts(app)}
    assert screen.button("period_recent").style == "primary"
    screen.button("period_all").action()
    _redraw(app)
    assert _drawn_rows(app, screen) == every


def test_dragging_the_rows_reaches_the_last_one_and_no_further(tmp_path):
    people = [person(f"Player {k:02d}") for k in range(24)]
    for k in range(0, 24, 4):
        write_game(tmp_path, people[k:k + 4], seed_where(4, False, k))
    h = history(tmp_path)
    with display_app((800, 480)) as (app, _clock):
        screen = ScoreboardScreen(app, h, back=lambda: None)
        app.show(screen)
        app.redraw()
        t = screen.table
        first = _drawn_rows(app, screen)
        assert len(first) < 24 and max(first) < 23  # only the rows in view are drawn
        start = (t.body.centerx, t.body.bottom - 5)
        finger(app, pygame.FINGERDOWN, start)
        app.pump()
        finger(app, pygame.FINGERMOTION, (start[0], start[1] - 3))  # not yet a drag
        app.pump()
        assert screen.scroll.offset == 0
        finger(app, pygame.FINGERUP, (start[0], start[1] - 3))
        app.pump()
        for _swipe in range(5):  # a swipe up the whole window, five times over
            finger(app, pygame.FINGERDOWN, start)
            app.pump()
            for y in range(start[1], -100, -60):
                finger(app, pygame.FINGERMOTION, (start[0], max(0, y)))
                app.pump()
            finger(app, pygame.FINGERUP, (start[0], 0))
            app.pump()
        assert screen.scroll.offset == screen.scroll.limit > 0
        _redraw(app)
        drawn = _drawn_rows(app, screen)
        last = scoreboard(h.games)[-1]
        assert drawn[23][1] == last.name
        names = [d for d in _texts(app) if d.name == last.name]
        assert names and t.body.contains(names[0].rect)


def test_the_keyboard_s_arrows_scroll_too(family_history):
    _app, screen, _ = _open(family_history, (480, 320))
    assert screen.scroll.scrolls
    screen.scroll_by(100)
    assert screen.scroll.offset == screen.scroll.limit
    screen.scroll_by(-100)
    assert screen.scroll.offset == 0


def test_an_empty_history_says_so_kindly(tmp_path):
    app, screen, _ = _open(history(tmp_path / "none"))
    texts = {d.name for d in _texts(app)}
    assert "No games yet." in texts
    assert not screen.button("merge").enabled


def test_back_and_escape_leave(family_history):
    _app, screen, left = _open(family_history)
    screen.button("back").action()
    screen.back()
    assert left == [True, True]


def _merge(app, screen, old, new):
    screen.button("merge").action()
    picker = app.screen
    assert isinstance(picker, MergeNamesScreen)
    picker.button(f"person_{old}").action()
    picker.button(f"person_{new}").action()
    assert isinstance(app.screen, ConfirmScreen)
    return picker


def test_merging_through_the_buttons_counts_the_old_games_under_the_new_name(
        family_history):
    app, screen, _ = _open(family_history)
    before = {s.name: s.games for s in scoreboard(family_history.games)}
    _merge(app, screen, "Anna", "Annie")
    assert "Count Anna's 4 games as Annie's?" in app.screen.text
    assert app.screen.text.endswith("This cannot be undone.")
    app.screen.button("confirm_yes").action()
    assert app.screen is screen
    assert app.notices == ["4 games of Anna's now count as Annie's."]
    rows = {s.name: s.games for s in screen.rows}
    assert "Anna" not in rows and rows["Annie"] == before["Anna"] + before["Annie"]
    assert "Anna" not in family_history.names()
    _redraw(app)
    assert "Anna" not in {d.name for d in _texts(app)}


def test_games_both_names_played_stay_apart_and_the_notice_says_so(family_history):
    app, screen, _ = _open(family_history)
    _merge(app, screen, "Maximilianne", "Bartholomew")
    assert "The 6 games in which both played stay as they are." in app.screen.text
    app.screen.button("confirm_yes").action()
    assert app.notices == ["2 games of Maximilianne's now count as Bartholomew's. 6 games "
                           "in which both played stay as they were."]
    rows = {s.name: s.games for s in screen.rows}
    assert rows["Maximilianne"] == 6 and rows["Bartholomew"] == 10


def test_computers_are_never_offered_for_merging(family_history):
    app, screen, _ = _open(family_history, (1920, 1080))
    screen.button("merge").action()
    offered = sorted(b.name for b in app.screen.buttons if b.name.startswith("person_"))
    assert offered == sorted(f"person_{n}" for n in family_history.names())
    app.screen.button("person_Jo").action()
    offered = {b.name for b in app.screen.buttons if b.name.startswith("person_")}
    assert "person_Jo" not in offered and len(offered) == len(family_history.names()) - 1


def test_cancelling_changes_nothing(family_history):
    records = family_history.dir
    files = {p.name: p.read_bytes() for p in records.iterdir()}
    app, screen, _ = _open(family_history)
    picker = _merge(app, screen, "Anna", "Annie")
    app.screen.button("confirm_no").action()  # back to the second step
    assert app.screen is picker and picker.old == "Anna"
    picker.back()
    assert picker.old is None
    picker.button("back").action()
    assert app.screen is screen
    assert app.notices == []
    assert {p.name: p.read_bytes() for p in records.iterdir()} == files
    assert "Anna" in {s.name for s in screen.rows}


def test_a_card_that_refuses_says_so_in_one_sentence(family_history, monkeypatch):
    def refused(old, new):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(family_history, "merge", refused)
    app, screen, _ = _open(family_history)
    _merge(app, screen, "Anna", "Annie")
    app.screen.button("confirm_yes").action()
    assert app.screen is screen
    text = cannot_merge(OSError(errno.EROFS, "x"), family_history.dir)
    assert app.notices == [text] and "read-only" in text and "\n" not in text
    assert "Anna" in {s.name for s in screen.rows}


def test_dragging_the_names_list_does_not_pick_a_name(tmp_path):
    """A finger that goes down on a name and drags scrolls the list; a tap picks it."""
    people = [person(f"Person {k:02d}") for k in range(16)]
    for k in range(0, 16, 4):
        write_game(tmp_path, people[k:k + 4], seed_where(4, False, k))
    app, screen, _ = _open(history(tmp_path), (480, 320))
    screen.button("merge").action()
    picker = app.screen
    assert picker.scroll.scrolls
    b = next(b for b in picker.buttons if b.name.startswith("person_"))
    x, y = b.rect.center
    picker.pointer_down((x, y))
    picker.pointer_move((x, y - 60))
    picker.pointer_up((x, y - 60))
    assert picker.old is None and picker.scroll.offset > 0
    b = next(b for b in picker.buttons if b.name.startswith("person_")
             and picker.area.contains(b.rect))
    picker.pointer_down(b.rect.center)
    picker.pointer_up(b.rect.center)
    assert picker.old == b.name.removeprefix("person_")


def test_a_narrow_table_leaves_out_the_least_needed_columns_not_readable_text(
        family_history):
    """Where the columns do not fit at a readable size, read right goes first, then best,
    then average; wins stay, and the text is never drawn under the least size."""
    _app, screen, _ = _open(family_history, (480, 480))
    wide = screen.table_for(pygame.Rect(0, 0, 460, 300))
    assert [c for c, _l, _w in wide.columns] == list(COLUMNS)
    kept = []
    for width in range(460, 190, -10):
        t = screen.table_for(pygame.Rect(0, 0, width, 300))
        shown = [c for c, _l, _w in t.columns]
        assert shown == list(COLUMNS[:len(shown)]), width
        assert t.px >= LEAST_PX
        assert t.columns[-1][1] + t.columns[-1][2] <= width
        kept.append(len(shown))
    assert kept == sorted(kept, reverse=True)
    assert kept[0] == len(COLUMNS) and kept[-1] <= 2


def test_two_names_that_played_every_game_together_have_nothing_to_merge(tmp_path):
    records = tmp_path / "records"
    for seed in range(2):
        write_game(records, [person("Jo", "owl"), person("Joe", "fox")], seed)
    app, screen, _ = _open(history(records))
    screen.button("merge").action()
    picker = app.screen
    picker.button("person_Jo").action()
    picker.button("person_Joe").action()
    assert app.screen is picker  # no question: nothing would change
    assert app.notices == ["Jo and Joe played every game together: there is nothing to "
                           "merge."]
