"""Faults of what the touchscreen draws: a phone seat's link under its QR code, the charts of
how well each player hid (the replay's strip, the large chart), the take-back question."""

from __future__ import annotations

import itertools

import pygame
import pytest

from clans_pi.phones.tokens import TOKEN_LENGTH
from clans_pi.ui.screens.peek import PeekScreen
from tests.faults import fault
from tests.ui_helpers import offscreen_app, random_session

SIZES = [(800, 480), (480, 320), (720, 1280), (1280, 720)]
#: A seat's link as the table serves it: the host, the port, and a token
#: (:func:`clans_pi.phones.tokens.new_token`; the second of its widest letters, the third as
#: older saves keep them).
LINKS = [
    f"http://raspberrypi.local:8080/p/{'q3jx7mbvfz0akpt2mwca9hd5e8'[:TOKEN_LENGTH]}",
    f"http://raspberrypi.local:8080/p/{'mw' * (TOKEN_LENGTH // 2)}",
    "http://192.168.178.123:8080/p/q3Jx-7LbVf_Z0aKpT2mWcA",
]


class _Phones:
    """Seat devices as the peek asks them: seat 1 is a phone with ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url

    def phone_url(self, seat: int) -> str | None:
        return self.url if seat == 1 else None


def _phone_peek(size: tuple[int, int], url: str):
    app, _clock = offscreen_app(size)
    app.table.session = random_session(3, moves=0)
    app.table.devices = _Phones(url)  # type: ignore[assignment]
    screen = PeekScreen(app, app.table.session, 1, done=lambda: None, deal=True,
                        device="phone")
    app.show(screen)
    app.full = True
    app.redraw()
    return app, screen


@fault("display", "a phone seat's link under its QR code cut at the card's edge "
       "('raspberrypi.local:8080/p/w')",
       sees="the whole link, over two or three lines where it is long, at a size one reads",
       kept="the seat's link and its QR code")
@pytest.mark.parametrize("url", LINKS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_phone_seat_s_link_is_drawn_whole(size, url):
    app, screen = _phone_peek(size, url)
    link = url.removeprefix("http://")
    card = screen.hold_rect
    qr = next(d.rect for d in app.canvas.records if d.kind == "region" and d.name == "qr")
    parts = [d for d in app.canvas.records if d.kind == "text" and d.name and d.name in link]
    assert "".join(d.name for d in parts) == link, [d.name for d in parts]
    for d in parts:
        assert d.fits, (d.name, d.rect, d.box)
        assert card.contains(d.rect), (d.name, d.rect, card)
        assert not d.rect.colliderect(qr), (d.name, d.rect, qr)
        assert d.height >= pygame.font.Font(None, app.canvas.least_px).get_height() - 1


def test_a_link_is_cut_after_a_slash_then_a_dot_or_colon_then_anywhere():
    from clans_pi.ui.canvas import text_width, wrap_link

    link = "raspberrypi.local:8080/p/q3Jx-7LbVf_Z0aKpT2mWcA"
    assert wrap_link(link, 18, 1000) == [link]
    wide = text_width("raspberrypi.local:8080/p/q3J", 18)
    assert wrap_link(link, 18, wide) == ["raspberrypi.local:8080/p/", "q3Jx-7LbVf_Z0aKpT2mWcA"]
    host = text_width("raspberrypi.local:80", 18)
    assert wrap_link(link, 18, host)[:2] == ["raspberrypi.local:", "8080/p/"]
    halves = max(text_width("q3Jx-7LbVf_", 18), text_width("Z0aKpT2mWcA", 18))
    assert wrap_link(link, 18, halves)[-2:] == ["q3Jx-7LbVf_", "Z0aKpT2mWcA"]  # not 20 and 2
    assert "".join(wrap_link(link, 18, 1)) == link  # a letter a line: still whole


def _strip_chart(size: tuple[int, int], monkeypatch) -> tuple[pygame.Rect, dict]:
    """Where the replay's strip draws its chart at ``size``, and how (the screen's call)."""
    from clans_pi.history.replay import GameReplay
    from clans_pi.ui.screens import past_replay
    from clans_pi.ui.screens.past_replay import ReplayScreen
    from tests.ui_helpers import BOARD, CHART, finished_session

    calls = []
    monkeypatch.setattr(past_replay, "draw_chart",
                        lambda canvas, rect, lines, total, **kw: calls.append((rect, kw)))
    app, _clock = offscreen_app(size)
    session = finished_session(4)
    screen = ReplayScreen(app, GameReplay(session.to_record(), "x.json", BOARD, CHART),
                          back=app.start_menu)
    app.show(screen)
    assert screen.reading.wait(60)
    app.full = True
    app.redraw()
    rect, kw = calls[-1]
    return pygame.Rect(rect), kw


def _curve(end: float, total: int = 40) -> list[float]:
    return [0.25 + (end - 0.25) * k / total for k in range(total + 1)]


#: Curves whose ends meet: the same figure, a few points apart, at the top and the bottom.
ENDS = [
    {"red": 0.28, "blue": 0.27, "yellow": 0.06, "black": 0.27},
    {"red": 0.5, "blue": 0.5, "green": 0.5, "black": 0.5},
    {"red": 1.0, "blue": 0.99, "green": 0.98, "black": 0.97},
    {"red": 0.0, "blue": 0.01, "green": 0.02, "yellow": 0.0},
]


@fault("display", "the replay's strip: the huts at the ends of curves that end close together "
       "drawn over one another (black's behind red's), so a line was known by colour alone",
       sees="every curve's hut whole, moved apart with a thin line to its curve's end",
       kept="the game's record, its reading")
@pytest.mark.parametrize("ends", ENDS, ids=lambda e: "-".join(f"{p:.2f}" for p in e.values()))
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_replay_chart_shows_every_curve_s_end_mark(size, ends, monkeypatch):
    from clans_pi.palette import mark_color
    from clans_pi.ui.canvas import Canvas
    from clans_pi.ui.hiding_chart import Line, draw_chart
    from clans_pi.ui.icons import hut_icon

    rect, kw = _strip_chart(size, monkeypatch)
    surface = pygame.Surface((rect.right + 10, rect.bottom + 10))
    canvas = Canvas(surface, record=True)
    kw["current"] = 40
    draw_chart(canvas, rect, [Line(clan, _curve(p)) for clan, p in ends.items()], 40, **kw)
    marks = [d for d in canvas.records if d.kind == "end"]
    for clan in ends:  # each hut's mark as many pixels as the hut alone has
        colour = mark_color(clan)
        whole = [d for d in marks if d.name == f"{kw['name']}:{clan}"]
        side = whole[0].rect.width if whole else 14
        icon = hut_icon(clan, side)
        alone = sum(icon.get_at((x, y)) == (*colour, 255) for x in range(side)
                    for y in range(side))
        seen = sum(surface.get_at((x, y))[:3] == colour for x in range(rect.left, rect.right)
                   for y in range(rect.top, rect.bottom))
        assert seen >= alone, (clan, seen, alone)
    assert len(marks) == len(ends)
    for i, a in enumerate(marks):
        assert rect.contains(a.rect), (a.name, a.rect, rect)
        for b in marks[i + 1:]:
            assert not a.rect.colliderect(b.rect), (a.name, a.rect, b.name, b.rect)


def _distance(p: tuple[float, float], a: tuple[int, int], b: tuple[int, int]) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = 0.0 if not dx and not dy else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy)
                                                   / (dx * dx + dy * dy)))
    return ((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2) ** 0.5


@fault("display", "the black clan's curve, drawn over a light edge, showed a gap in its edge "
       "at every bend",
       sees="each curve's edge unbroken round its bends",
       kept="the game's record, its reading")
@pytest.mark.parametrize("clan", ["black", "red"])
def test_a_curve_s_edge_is_unbroken_at_its_bends(clan):
    from clans_pi.ui.canvas import Canvas
    from clans_pi.ui.clan_look import DEFAULT_LOOK
    from clans_pi.ui.hiding_chart import Line, draw_chart, line_width, point
    from clans_pi.ui.theme import BG

    values = [0.2, 0.7, 0.3, 0.9, 0.1, 0.5, 0.52, 0.2, 0.8]
    surface = pygame.Surface((300, 120))
    canvas = Canvas(surface, record=True)
    draw_chart(canvas, pygame.Rect(10, 10, 280, 100), [Line(clan, values)], len(values) - 1,
               look=DEFAULT_LOOK, scale=1.0, blind=0.25, name="t")
    area = next(d.rect for d in canvas.records if d.kind == "chart")
    pts = [point(area, len(values) - 1, k, p) for k, p in enumerate(values)]
    reach = (line_width(1.0) + 2) / 2 - 1  # well inside the edge's width
    drawn = {DEFAULT_LOOK.color(clan), DEFAULT_LOOK.ink(clan)}
    gaps = []
    for x in range(area.left, area.right + 1):
        for y in range(area.top - 4, area.bottom + 5):
            near = min(_distance((x, y), a, b) for a, b in itertools.pairwise(pts)) <= reach
            if near and surface.get_at((x, y))[:3] not in drawn:
                gaps.append((x, y))
    assert not gaps, gaps
    for x, y in pts[1:-1]:  # the curve's own colour at each bend, its edge round it
        assert surface.get_at((x, y))[:3] == DEFAULT_LOOK.color(clan)
    assert BG not in drawn


def _large_chart(size: tuple[int, int], curve: list[float], moves: tuple[int, ...] = ()):
    """The large chart of a player whose table's reading is ``curve`` (``moves``: theirs)."""
    from clans_pi.history.hiding import Hiding, MoveFacts, PlayerHiding
    from clans_pi.ui.screens.hiding import HidingScreen

    app, _clock = offscreen_app(size)
    session = random_session(3, moves=0)
    facts = dict.fromkeys(moves, MoveFacts(("red",), "forest", ""))
    player = PlayerHiding(0, session.seats[0].name, "red", {1: tuple(curve)}, tuple(curve),
                          moves, facts)
    hiding = Hiding((player,), len(curve) - 1)
    screen = HidingScreen(app, hiding, session, 0, back=lambda: None, replay_at=lambda m: None)
    app.show(screen)
    app.full = True
    app.redraw()
    return app, screen


def test_the_large_chart_s_axis_starts_at_the_deal():
    from clans_pi.ui.screens import hiding as hiding_screen
    from tests.i18n_helpers import language

    curve = [0.25 + 0.01 * k for k in range(31)]
    for code in ("en", "de"):
        with language(code):
            app, screen = _large_chart((800, 480), curve)
            area = next(d.rect for d in app.canvas.records if d.kind == "chart")
            axis = [d for d in app.canvas.records if d.kind == "text"
                    and d.rect.top > area.bottom and screen.chart_box.contains(d.rect)]
            first = min(axis, key=lambda d: d.rect.left)
            last = max(axis, key=lambda d: d.rect.right)
            assert first.name == hiding_screen._("deal"), first.name
            assert last.name == hiding_screen._("move {n}").format(n=30)


@fault("display", "the large chart of how well a player hid: its axis said 'move 1' under the "
       "deal", sees="'deal' under the first point, the last move's number under the last",
       kept="the game's record, its reading")
def test_the_large_chart_s_first_point_is_called_the_deal():
    app, _screen = _large_chart((800, 480), [0.25 + 0.01 * k for k in range(31)])
    names = [d.name for d in app.canvas.records if d.kind == "text"]
    assert "move 1" not in names and "deal" in names and "move 30" in names


def _crossed(label: pygame.Rect, pts: list[tuple[int, int]], reach: int) -> bool:
    room = label.inflate(2 * reach, 2 * reach)
    return any(room.clipline(a, b) for a, b in itertools.pairwise(pts))


#: Curves through where the label stood (right, just over the blind guess), one with a
#: give-away there; one hugging the blind guess all along; one in a zigzag over all of it.
CROSSING = [
    ([0.25] * 30 + [0.3] * 8 + [0.45, 0.31], (38,), True),
    ([0.23] * 20 + [0.28] * 20, (), True),
    ([0.15 + 0.2 * (k % 2) for k in range(41)], (), False),
]


@fault("display", "the large chart of how well a player hid: its 'blind guess' label crossed "
       "by the curve and a give-away's mark",
       sees="the label where no curve or mark passes", kept="the game's record, its reading")
@pytest.mark.parametrize("curve, moves, room", CROSSING, ids=["giveaway", "hugging", "zigzag"])
@pytest.mark.parametrize("size", [(800, 480), (480, 320), (720, 1280)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_blind_guess_label_is_where_no_curve_or_mark_passes(size, curve, moves, room):
    from clans_pi.ui.hiding_chart import line_width, point

    app, screen = _large_chart(size, curve, moves)
    label = next(d for d in app.canvas.records if d.kind == "text" and d.name == "blind guess")
    area = next(d.rect for d in app.canvas.records if d.kind == "chart")
    pts = [point(area, len(curve) - 1, k, p) for k, p in enumerate(curve)]
    marks = [d.rect for d in app.canvas.records if d.kind == "marker"]
    assert len(marks) == len(moves)
    if room:  # a zigzag over the whole chart leaves none: the label over it, inside
        assert not _crossed(label.rect, pts, (line_width(screen.scale) + 2) // 2), label.rect
    assert not any(label.rect.colliderect(m) for m in marks), (label.rect, marks)
    assert label.fits and screen.chart_box.contains(label.rect)


def _undo_question(computers: int) -> str:
    """The take-back question's words when ``computers`` computer moves came after."""
    app, _clock = offscreen_app((800, 480))
    session = random_session(3, moves=12)
    session._undo_moves = computers + 1
    app.table.session = session
    app.table.seats = list(session.seats)
    app.play()
    app.screen.ask_undo()
    return app.screen.dialog.text


@fault("display", "the take-back question said 'the 1 computer move after it'",
       sees="'the computer move after it'; 'the 2 computer moves after it' for more",
       kept="the game")
def test_the_take_back_question_counts_computer_moves_in_words():
    from tests.i18n_helpers import language

    one, two = _undo_question(1), _undo_question(2)
    a, b = one.split("'s move")[0], two.split("'s move")[0]
    assert one == f"{a}'s move and the computer move after it are taken back; {a} moves again."
    assert two == f"{b}'s move and the 2 computer moves after it are taken back; {b} moves again."
    for code in ("de", "fr", "it"):  # a number only where there are several
        with language(code):
            assert "1" not in _undo_question(1) and "2" in _undo_question(2), code
            assert "3" in _undo_question(3), code
    with language("ja"):  # one form for every count: the count always written
        assert "2" in _undo_question(2) and "3" in _undo_question(3)


@pytest.mark.parametrize("code", ["de", "fr", "it", "ja"])
def test_every_language_has_the_take_back_question_s_plural(code):
    from tests.test_i18n import PLURALS, po

    one = "{name}'s move and the computer move after it are taken back; {name} moves again."
    entry = next(m for m in po(code) if isinstance(m.id, tuple) and m.id[0] == one)
    assert len(entry.string) == PLURALS[code] and all(entry.string)
    assert "{n}" in entry.string[-1] and "{n}" in entry.id[1]
