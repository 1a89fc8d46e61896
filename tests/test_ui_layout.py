"""Every screen at every supported size: something drawn, nothing outside the window, board,
strip and panel apart, text fitting its box, touch targets big enough."""

from __future__ import annotations

import functools
import itertools
import tempfile
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from clans_pi.settings.wifi import Hotspot
from clans_pi.ui.app import App
from clans_pi.ui.clan_look import DEFAULT_LOOK, ClanLook
from clans_pi.ui.layout import play_layout, scale_for
from clans_pi.ui.screens.names import NameScreen
from clans_pi.ui.screens.play import PlayScreen
from clans_pi.ui.screens.rules import PAGES
from tests.history_helpers import NOW, family_games
from tests.ui_helpers import (
    BOARD,
    CHART,
    SIZES,
    act,
    finished_session,
    offscreen_app,
    random_session,
    territory_point,
)


def _start(app, players: int = 4):
    app.start_menu()
    act(app.screen, f"players{players}")


def _start_with_computers(app, players: int = 4):
    """Each card with its person / computer button, seat 2 a computer."""
    from tests.bot_fakes import Bots

    app.table.bots = Bots()
    _start(app, players)
    act(app.screen, "kind1")


def _names(app):
    app.start_menu()
    s = app.screen
    app.show(NameScreen(app, s.seats[0], s.seats[1:], 0, lambda seat: None, lambda: None))


def _keyboard(app):
    _names(app)
    act(app.screen, "mode")
    app.screen.type_text("Maximilianne")


def _accents(app):
    _keyboard(app)
    act(app.screen, "key_page")


def _deal_peek(app):
    app.table.session = random_session(4, moves=0)
    app.deal_peek(0)


def _peek_held(app):
    app.table.session = random_session(4, moves=30)
    app.peek(3)
    act(app.screen, "hold", True)


def _play(app):
    app.table.session = random_session(4, moves=30)
    app.play()


def _hint(*, held: bool, thinking: bool = False):
    """The private hint screen once the search is done (``thinking``: the table says it is
    still under way, as when the search takes long)."""

    def go(app):
        from tests.bot_fakes import WAIT_S, Bots

        app.table.bots, app.table.hints = Bots(), True
        _play(app)
        act(app.screen, "hint")
        assert app.table.computers.hint.worker.join(WAIT_S)
        app.tick(app.clock())
        if thinking:
            app.table.hint = lambda: ("thinking", None)
        if held:
            act(app.screen, "hold", True)

    return go


def _play_busy(app):
    """A selection, a long-press card and a refusal message at once."""
    app.table.session = random_session(4, moves=40)
    app.play()
    screen: PlayScreen = app.screen
    src = min(app.session.movable())
    screen.down(territory_point(app, src))
    screen.long_press(territory_point(app, max(app.session.movable())))
    screen.say("7 or more only move onto a bigger group")


def _order(app):
    app.table.session = random_session(3, seed=1, moves=28)
    app.play()
    screen: PlayScreen = app.screen
    m = next(m for m in app.session.public().legal_moves
             if len(app.session.founds(m.src, m.dst)) >= 2)
    screen.move_huts(m.src, m.dst)
    screen.tap_territory(screen.order.founds[0])


def _dialog(app):
    _play(app)
    app.screen.ask_menu()


def _reveal(app):
    app.table.session = finished_session(4)
    app.reveal()


def _long_names(played):
    """``played`` with each player's name as long as a name may be (40 code points: a
    record or an older version's save; the keyboard types 12)."""
    from clans_pi.rules.record import replay
    from clans_pi.session import Seat, Session

    data = played.to_record()
    long = {n: f"{n} Wolkenstein-Ebersberg von und zu Au"[:40] for n in data["players"]}
    data["players"] = [long[n] for n in data["players"]]
    return Session(replay(data, BOARD, CHART),
                   [Seat(long[s.name], s.avatar, s.kind) for s in played.seats])


def _reveal_long_names(app):
    """The reveal with the longest names: cut with an ellipsis, in the rows and the title."""
    app.table.session = _long_names(finished_session(4))
    app.reveal()


def _play_long_names(app):
    """The play screen with the longest names: cut with an ellipsis in the seats' rows."""
    app.table.session = _long_names(random_session(4, moves=20))
    app.play()


def _reveal_read(app):
    """The reveal once the reading of how well each player hid is there."""
    _reveal(app)
    assert app.screen.reading.wait(60)


def _hiding(seat: int):
    """A player's large chart of how well they hid, opened from the reveal."""

    def go(app):
        _reveal_read(app)
        app.screen.open_hiding(seat)
        assert app.screen.name == "hiding"

    return go


def _final_board(app):
    app.table.session = finished_session(4)
    app.screen = None
    from clans_pi.ui.screens.final_board import FinalBoardScreen

    app.show(FinalBoardScreen(app, app.session, back=app.reveal))


def _past_replay(where: str):
    """A finished game of four opened in the replay screen: in epoch III (``"middle"``),
    at its end, or its result (``"result"``)."""

    def go(app):
        from clans_pi.history.replay import GameReplay
        from clans_pi.ui.screens.past_replay import ReplayScreen

        replay = GameReplay(finished_session(4).to_record(), "x.json", BOARD, CHART)
        screen = ReplayScreen(app, replay, back=app.start_menu)
        app.show(screen)
        act(screen, "epoch_next")
        act(screen, "epoch_next")
        act(screen, "move_next")
        if where != "middle":
            while screen.button("epoch_next").enabled:
                act(screen, "epoch_next")
        if where == "result":
            act(screen, "result")
        if where == "cards":
            act(screen, "strip")  # the players' cards instead of the chart
        if where in ("middle", "read"):
            assert screen.reading.wait(60)

    return go


def _rules_page(k):
    def go(app):
        app.rules(app.start_menu)
        app.screen.page = k
        app.screen.layout()

    return go


def _deal_peek_device(app):
    from tests.test_ui_devices import _devices

    app.table.devices = _devices()[0]
    app.table.session = random_session(4, moves=0)
    app.deal_peek(0)


def _pair(app):
    from clans_pi.ui.screens.pair import PairScreen
    from tests.test_ui_devices import _devices

    app.table.devices = _devices()[0]
    app.start_menu()
    app.show(PairScreen(app, [1], ["Maximilianne", "Bartholomew", "C", "D"], app.start_menu))


def _notice(app):
    _play(app)
    app.notify("Seat 2's handheld is gone: peek with the eye on the screen")


def _kiosk_start(app, players: int = 4):
    app.kiosk = True
    _start(app, players)


#: The phones' Wi-Fi as the installer's --hotspot makes it (a generated password).
HOTSPOT = Hotspot("Clans Pi", "k7qm-x3vt-9bfp-w2hc")


def _wifi_start(app, players: int = 4):
    """The kiosk's start screen with the phones' Wi-Fi and the first-game guide."""
    from clans_pi.table.guide import Guide, GuideMemory

    app.kiosk, app.wifi = True, HOTSPOT
    app.table.guide = Guide(GuideMemory(None))
    _start(app, players)


def _wifi(app):
    app.kiosk, app.wifi = True, HOTSPOT
    _start(app)
    act(app.screen, "wifi")


def _kiosk_menu(app):
    app.kiosk = True
    _dialog(app)


def _switch_off(app):
    app.kiosk = True
    _play(app)
    app.ask_switch_off(app.play, game_kept=True)


#: Past games on a card, made once for the screens that show them.
PAST = Path(tempfile.mkdtemp(prefix="clans-past-")) / "records"
family_games(PAST, 14)


def _history(app):
    from clans_pi.history import History

    app.history = History(PAST, BOARD, CHART)
    return app.history


def _start_with_history(app, players: int = 4):
    _history(app)
    _wifi_start(app, players)


def _past_games(app):
    from clans_pi.ui.screens.past_games import PastGamesScreen

    app.show(PastGamesScreen(app, _history(app), back=app.start_menu, now=lambda: NOW))


def _past_games_empty(app):
    from clans_pi.history import History
    from clans_pi.ui.screens.past_games import PastGamesScreen

    empty = History(Path(tempfile.mkdtemp()) / "records", BOARD, CHART)
    app.show(PastGamesScreen(app, empty, back=app.start_menu))


def _past_games_delete(app):
    _past_games(app)
    act(app.screen, "delete0")


@functools.cache
def _family_records() -> Path:
    """A dozen past games (long names, computers, shared wins), written once."""
    from tests.history_helpers import family

    records = Path(tempfile.mkdtemp(prefix="clans-layout-")) / "records"
    family(records)
    return records


def _scoreboard(*, empty: bool = False, recent: bool = False):
    def go(app):
        from clans_pi.ui.screens.scoreboard import ScoreboardScreen
        from tests.history_helpers import history

        records = Path(tempfile.mkdtemp()) if empty else _family_records()
        app.show(ScoreboardScreen(app, history(records), back=app.start_menu))
        if recent:
            act(app.screen, "period_recent")

    return go


def _merge_names(*, old: str | None = None, confirm: str | None = None):
    def go(app):
        _scoreboard()(app)
        act(app.screen, "merge")
        if old is not None:
            act(app.screen, f"person_{old}")
        if confirm is not None:
            act(app.screen, f"person_{confirm}")

    return go


SCREENS = {
    "start_with_history": _start_with_history,
    "past_games": _past_games,
    "past_games_empty": _past_games_empty,
    "past_games_delete": _past_games_delete,
    "scoreboard": _scoreboard(),
    "scoreboard_recent": _scoreboard(recent=True),
    "scoreboard_empty": _scoreboard(empty=True),
    "merge_names": _merge_names(),
    "merge_names_into": _merge_names(old="Maximilianne"),
    "merge_names_confirm": _merge_names(old="Maximilianne", confirm="Bartholomew"),
    "kiosk_start": _kiosk_start,
    "wifi_start": _wifi_start,
    "wifi": _wifi,
    "kiosk_menu": _kiosk_menu,
    "switch_off": _switch_off,
    "deal_peek_device": _deal_peek_device,
    "pair": _pair,
    "notice": _notice,
    "start": _start,
    "names": _names,
    "keyboard": _keyboard,
    "accents": _accents,
    "deal_peek": _deal_peek,
    "peek_held": _peek_held,
    "hint": _hint(held=False),
    "hint_held": _hint(held=True),
    "hint_held_thinking": _hint(held=True, thinking=True),
    "play": _play,
    "play_busy": _play_busy,
    "order": _order,
    "dialog": _dialog,
    "reveal": _reveal,
    "reveal_long_names": _reveal_long_names,
    "play_long_names": _play_long_names,
    "final_board": _final_board,
    "past_replay": _past_replay("middle"),
    "past_replay_end": _past_replay("end"),
    "past_result": _past_replay("result"),
    "past_replay_cards": _past_replay("cards"),
    "reveal_read": _reveal_read,
    "hiding": _hiding(0),
    "hiding_last": _hiding(3),
    **{f"rules{k + 1}": _rules_page(k) for k in range(len(PAGES))},
}


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", list(SCREENS))
def test_screen_fits(screen, size):
    _check_fits(screen, size, DEFAULT_LOOK)


#: The screens that show clans, again with the other look settings (R3, display.clan_marks).
CLAN_SCREENS = ("peek_held", "play", "play_busy", "reveal", "final_board", "rules1",
                "past_replay", "past_result", "reveal_read", "hiding")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", CLAN_SCREENS)
def test_screen_fits_with_a_white_fifth_clan_and_no_marks(screen, size):
    _check_fits(screen, size, ClanLook(fifth="white", marks=False))


#: The least height of any text a screen draws, in pixels: 12 on every display
#: of 480 px and more on its short side; the 3.5" 480x320 display cannot hold that much
#: text at 12 px (its whole height is 320), so there the least is 8.
MIN_TEXT = 12
MIN_TEXT_SMALL = 8


def _check_fits(screen: str, size: tuple[int, int], look: ClanLook,
                setup: Callable[[App], object] | None = None) -> None:
    app, _ = offscreen_app(size)
    app.look = look
    app.table.seats = []
    (setup or SCREENS[screen])(app)
    app.redraw()
    window = app.surface.get_rect()
    records = app.canvas.records
    surf = app.surface
    # Not empty: several colours, and a fair part of the window is not the background.
    sample = [surf.get_at((x, y))[:3] for x in range(0, size[0], 7) for y in range(0, size[1], 7)]
    background = max(set(sample), key=sample.count)
    assert len(set(sample)) >= 6, "the screen is (nearly) one colour"
    drawn = sum(c != background for c in sample) / len(sample)
    if screen != "peek_held":  # dark on purpose but for the clan's small swatch (R22)
        assert drawn > 0.05, f"only {drawn:.0%} of the screen is drawn on"
    texts = [d for d in records if d.kind in ("text", "paragraph")]
    assert texts, "no text drawn"
    for d in records:
        assert window.contains(d.rect), f"{d.kind} {d.name!r} at {d.rect} leaves the window"
        assert d.fits, f"{d.kind} {d.name!r} does not fit its box {d.box}"
        assert not d.missing, f"text {d.name!r}: no glyph for {d.missing!r}"
        if d.kind == "text":
            grown = d.box.inflate(2, 4)
            assert grown.contains(d.rect), f"text {d.name!r} {d.rect} outside its box {d.box}"
            # Readable from across the table: no text under 12 px, measured as
            # drawn (the line's height in the face in use), at every size.
            least = MIN_TEXT if min(size) >= 480 else MIN_TEXT_SMALL
            assert d.height >= least, f"text {d.name!r} is {d.height} px high"
    minimum = 44 * scale_for(size)
    for d in records:
        if d.kind == "target":
            assert min(d.rect.size) >= minimum, f"touch target {d.name} is {d.rect.size}"
    regions = {d.name: d.rect for d in records if d.kind == "region"}
    if screen.startswith(("play", "order", "final", "past_replay")):
        outer = [n for n in ("board", "panel", "players") if n in regions]
        for a, b in itertools.combinations(outer, 2):
            assert not regions[a].colliderect(regions[b]), f"{a} overlaps {b}"
        inner = [n for n in ("chart", "scores") if n in regions]
        for a in inner:
            assert any(regions[o].contains(regions[a]) for o in outer if o != "board"), (
                f"{a} is neither in the panel nor under the board")
        if len(inner) == 2:
            assert not regions["chart"].colliderect(regions["scores"]), "chart overlaps scores"


#: The board's share of the window (at least 65 % on the 7" display, 800x480),
#: as measured; an upright window turns the board to give it its height.
BOARD_SHARE = {(800, 480): 0.65, (1024, 600): 0.65, (1280, 800): 0.6, (1920, 1080): 0.6,
               (1024, 768): 0.45, (720, 1280): 0.44, (480, 320): 0.55}


@pytest.mark.parametrize("size", list(BOARD_SHARE), ids=lambda s: f"{s[0]}x{s[1]}")
def test_play_layout_keeps_board_aspect_and_uses_the_window(size):
    lay = play_layout(size, BOARD.aspect)
    shape = 1 / BOARD.aspect if lay.portrait else BOARD.aspect
    assert lay.portrait == (size[1] > size[0])
    assert abs(lay.board.width / lay.board.height - shape) < 0.02
    assert lay.board_area.contains(lay.board)
    share = lay.board.width * lay.board.height / (size[0] * size[1])
    assert share >= BOARD_SHARE[size], f"the board has {share:.0%} of the window"
    assert lay.panel.width >= 130 * lay.scale and lay.panel.height == size[1]
    assert lay.strip.top >= lay.board.bottom and lay.strip.width == lay.board_area.width
    assert lay.unit >= 48


def test_every_territory_can_be_hit_at_the_smallest_size():
    app, _ = offscreen_app((800, 480))
    app.table.session = random_session(2, moves=0)
    app.play()
    for t in range(len(BOARD.territories)):
        pos = territory_point(app, t)
        assert app.screen.bv.territory_at(pos) == t
    lake = BOARD.lakes[0]
    bv = app.screen.bv
    cx = sum(p[0] for p in lake) / len(lake)
    cy = sum(p[1] for p in lake) / len(lake)
    assert bv.territory_at((bv.rect.x + cx * bv.rect.w, bv.rect.y + cy * bv.rect.h)) is None
    assert pygame.Rect(bv.rect).collidepoint(bv.anchors[0])


#: The smallest pictures the game accepts (clans_pi.settings.options.MIN_SIZE, named in --help), a
#: square one and upright ones between lying and tall: every screen must lay out there.
SMALLEST = ((480, 320), (480, 480), (480, 640), (600, 700))


@pytest.mark.parametrize("size", SMALLEST, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_screen_lays_out_at_the_smallest_accepted_sizes(screen, size):
    from clans_pi.settings.options import MIN_SIZE, size_problem

    assert size_problem(size) is None
    assert size[0] >= MIN_SIZE[0] and size[1] >= MIN_SIZE[1]
    _check_fits(screen, size, DEFAULT_LOOK)


#: The start screen's kinds, each drawn with 2, 3 and 4 players (three players'
#: seat texts overflowed at 480x320 when only four were checked).
START_SCREENS = {"start": _start, "kiosk_start": _kiosk_start, "wifi_start": _wifi_start,
                 "start_with_history": _start_with_history,
                 "start_with_computers": _start_with_computers}


@pytest.mark.parametrize("size", SIZES + SMALLEST, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", (2, 3, 4), ids=lambda n: f"{n}players")
@pytest.mark.parametrize("screen", list(START_SCREENS))
def test_the_start_screen_fits_every_player_count(screen, players, size):
    _check_fits(screen, size, DEFAULT_LOOK,
                functools.partial(START_SCREENS[screen], players=players))
