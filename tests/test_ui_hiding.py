"""How well each player hid, on the touchscreen: the reveal's small charts (a ring
while the reading is worked out), the large chart with its give-aways (a tap opens the
replay at that move) and the line over it saying whose reading it is, the replay's chart
with the move shown. The figures drawn are the ones ``clans-pi history --analysis FILE
--json`` prints."""

from __future__ import annotations

import threading

import pygame
import pytest

from clans_pi.history import hiding_cache
from clans_pi.history.hiding import READING_NOTE, analyse_record
from clans_pi.history.replay import GameReplay
from clans_pi.i18n import _ as tr
from clans_pi.session import Seat, Session
from clans_pi.ui.hiding_chart import plot_area, point
from clans_pi.ui.screens.past_replay import ReplayScreen
from tests.hiding_helpers import plain_game
from tests.i18n_helpers import language, text_problems
from tests.ui_helpers import BOARD, CHART, act, offscreen_app


def _session() -> Session:
    """A finished game of four in which P0 plainly plays for their clan."""
    state = plain_game(3, 4, (0,))
    return Session(state.copy(), [Seat(name, "") for name in state.players])


def _reveal(app):
    app.table.session = _session()
    app.reveal()
    assert app.screen.reading.wait(60)
    app.redraw()
    return app.screen


def _json(session):
    return analyse_record(session.to_record(), BOARD, CHART).to_json()


def test_the_reveals_charts_draw_the_figures_the_command_line_prints():
    app, _ = offscreen_app((800, 480))
    screen = _reveal(app)
    data = _json(screen.session)
    texts = {d.name for d in app.canvas.records if d.kind == "paragraph"}
    markers = {d.name for d in app.canvas.records if d.kind == "marker"}
    for seat, s in enumerate(screen.session.seats):
        row = next(p for p in data["players"] if p["name"] == s.name)
        assert [round(p, 4) for p in screen.shown[seat]] == row["curve"]
        assert row["verdict"][:40] in texts
        assert {f"chart{seat}:{g['move']}" for g in row["giveaways"]} == {
            m for m in markers if m.startswith(f"chart{seat}:")}
    # The plainly playing player (the first to move) is read, with a give-away marked.
    p0 = data["players"][0]
    assert p0["verdict"].startswith("Read from move") and p0["giveaways"]


def test_the_line_is_drawn_in_its_clans_colour_where_the_figures_say():
    app, _ = offscreen_app((800, 480))
    screen = _reveal(app)
    chart = next(d for d in app.canvas.records if d.kind == "chart" and d.name == "chart0")
    curve = screen.shown[0]
    total = len(curve) - 1
    clan = screen.reading.result.of(screen.session.seats[0].name).clan
    colour = app.look.color(clan)
    for k in (total // 3, total // 2, total - 2):
        x, y = point(chart.rect, total, k, curve[k])
        near = [app.surface.get_at((x + dx, y + dy))[:3] for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)]
        assert colour in near, (k, near)
    assert plot_area(chart.rect, 14).height > 0


def test_a_ring_turns_until_the_reading_is_there(monkeypatch):
    gate = threading.Event()
    real = hiding_cache.analyse_record

    def slow(*a, **k):
        gate.wait(30)
        return real(*a, **k)

    monkeypatch.setattr(hiding_cache, "analyse_record", slow)
    app, clock = offscreen_app((800, 480))
    app.table.session = _session()
    app.reveal()
    app.redraw()
    screen = app.screen
    assert {d.name for d in app.canvas.records if d.kind == "ring"} == {
        f"ring{k}" for k in range(4)}
    assert screen.wakeup() is not None and screen.chart_cells != []
    act(screen, "hiding0")  # nothing to open yet
    assert app.screen is screen
    gate.set()
    assert screen.reading.wait(60)
    assert screen.tick(clock())  # the charts come
    app.redraw()
    assert not [d for d in app.canvas.records if d.kind == "ring"]
    assert screen.wakeup() is None


def test_a_tap_opens_the_large_chart_and_a_giveaway_opens_the_replay_at_its_move():
    app, _ = offscreen_app((800, 480))
    screen = _reveal(app)
    plain = plain_game(3, 4, (0,)).players[0]  # the first to move plays plainly
    seat = next(k for k, s in enumerate(screen.session.seats) if s.name == plain)
    act(screen, f"hiding{seat}")
    large = app.screen
    assert large.name == "hiding"
    app.redraw()
    data = next(p for p in _json(screen.session)["players"] if p["name"] == plain)
    drawn = [d.name for d in app.canvas.records if d.kind == "paragraph"]
    lines = [g.line() for g in large.player.giveaways]
    assert [g["words"] for g in data["giveaways"]] == [g.words for g in large.player.giveaways]
    for line in lines:
        assert line[:40] in drawn
    assert {d.name for d in app.canvas.records if d.kind == "marker"} == {
        f"large:{g['move']}" for g in data["giveaways"]}
    move = data["giveaways"][0]["move"]
    act(large, "giveaway0")
    assert isinstance(app.screen, ReplayScreen) and app.screen.replay.ply == move
    act(app.screen, "back")
    assert app.screen is screen


def test_the_replay_marks_the_move_shown_and_each_step_moves_it():
    app, _ = offscreen_app((800, 480))
    session = _session()
    replay = GameReplay(session.to_record(), "x.json", BOARD, CHART)
    screen = ReplayScreen(app, replay, back=app.start_menu)
    app.show(screen)
    assert screen.reading.wait(60)
    data = _json(session)
    for _step in range(3):
        act(screen, "move_next")
        app.redraw()
        ply = replay.ply
        texts = [d.name for d in app.canvas.records if d.kind == "text"]
        for seat, s in enumerate(screen.game.players):
            row = next(p for p in data["players"] if p["name"] == s.name)
            assert [round(p, 4) for p in screen.shown[seat]] == row["curve"]
            assert f"{min(99, max(1, round(100 * row['curve'][ply])))} %" in texts
        chart = next(d for d in app.canvas.records if d.kind == "chart")
        total = replay.total
        x = point(chart.rect, total, ply, 0)[0]
        assert app.surface.get_at((x, chart.rect.centery))[:3] == (255, 255, 255)
    act(screen, "strip")  # the players' cards instead
    app.redraw()
    assert not [d for d in app.canvas.records if d.kind == "chart"]
    act(screen, "strip")
    app.redraw()
    assert [d for d in app.canvas.records if d.kind == "chart"]
    assert pygame.Rect(screen.button("strip").rect).colliderect(app.screen.lay.strip)


@pytest.mark.parametrize("code", ["en", "ja"])
@pytest.mark.parametrize("size", [(800, 480), (480, 320)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_large_chart_says_its_percentages_are_the_computers_reading(code, size):
    """Over the large chart, a line says whose reading the percentages are (the computers':
    people may play otherwise), inside the chart's panel, apart from every other word on
    the screen, whole and inside the window, in English and in Japanese at both sizes."""
    with language(code):
        app, _ = offscreen_app(size)
        screen = _reveal(app)
        act(screen, "hiding0")
        large = app.screen
        app.redraw()
        note = tr(READING_NOTE)
        records = app.canvas.records
        drawn = [d for d in records if d.kind == "paragraph" and d.name == note[:40]]
        assert len(drawn) == 1, [d.name for d in records if d.kind == "paragraph"]
        para = drawn[0]
        assert para.fits and large.chart_box.contains(para.rect)
        lines = [d for d in records if d.kind == "text" and para.box.contains(d.rect)]
        assert "".join(d.name for d in lines).replace(" ", "") == note.replace(" ", "")
        others = [d for d in records if d.kind in ("text", "paragraph", "chart", "marker")
                  and d is not para and d not in lines]
        for d in others:
            assert not d.rect.colliderect(para.rect), (d.kind, d.name, d.rect, para.rect)
        assert not text_problems(app), text_problems(app)
