"""The first-game guide: each explanation comes up at the first time its topic happens in a
game, once, from public events only (R22), driven by real pygame events; nothing happens
under it (taps, a computer player's move); skipping is remembered across restarts of the
app; a damaged memory file is survived; undo and save/resume keep it sound. The cards
themselves (sizes, R22 pixels, texts): tests/test_ui_guide_cards.py."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clans_pi.rules.constants import BIG_GROUP, CLANS, NUM_CLANS
from clans_pi.rules.epochs import FAVOURABLE, NEUTRAL
from clans_pi.rules.events import Moved, Strife, VillageFounded
from clans_pi.rules.moves import Move
from clans_pi.rules.village import Village
from clans_pi.saving.store import GameStore
from clans_pi.session import Seat
from clans_pi.table.computers import BOT_PAUSE_MS
from clans_pi.table.guide import GUIDE_FILE, TOPICS, Guide, GuideMemory, Tip
from tests.bot_fakes import Bots, computer_to_move, with_kinds, worker_done
from tests.ui_helpers import (
    BOARD,
    CHART,
    display_app,
    finish_animation,
    hold,
    offscreen_app,
    press,
    random_session,
    tap,
    tap_move,
    territory_point,
)


def _guided(app, path: Path | None) -> None:
    """Give ``app`` a guide remembered in ``path`` (the real app does this in run.play)."""
    app.table.guide = Guide(GuideMemory(path))


def _topic(app) -> str | None:
    return None if app.overlay is None else app.overlay.tip.topic


def _got_it(app) -> str:
    """Tap "Got it" on the card showing; return its topic."""
    topic = _topic(app)
    assert topic is not None
    tap(app, app.overlay.button("guide_ok").rect.center)
    return topic


def _close_all(app, shown: list[tuple[str, int]]) -> None:
    """Close every card that comes up now, noting (topic, public move count)."""
    app.pump()
    while app.overlay is not None:
        shown.append((_got_it(app), app.session.public().ply))
        app.pump()




def _expected(before, after, move: Move) -> list[str]:
    """What the guide should explain after ``move``, worked out from the public views
    before and after it (independently of the guide's own reading of the events)."""
    out = []
    if (sum(after.huts[move.dst]) >= BIG_GROUP
            and move.dst not in {v.territory for v in after.villages}):
        out.append("big")
    new = after.villages[len(before.villages):]
    if new:
        out.append("village")
    for v in new:
        met = {CLANS[c] for c, n in enumerate(v.huts) if n} | set(v.lost)
        if len(met) == NUM_CLANS:
            out.append("strife")
    if after.epoch != before.epoch and after.end is None:
        out.append("epoch")
    return out


def _first_occurrences(expected: list[tuple[str, int]]) -> list[tuple[str, int]]:
    firsts: dict[str, int] = {}
    for topic, ply in expected:
        firsts.setdefault(topic, ply)
    return list(firsts.items())


# ------------------------------------------------------------------ a whole game


@pytest.mark.parametrize(("players", "size"), [(2, (800, 480)), (3, (1024, 600)),
                                               (4, (720, 1280))])
def test_each_topic_once_at_its_first_occurrence(players, size, tmp_path):
    rng = random.Random(1)  # with these deals, games that meet every topic (strife too)
    with display_app(size, seed=players) as (app, clock):
        _guided(app, tmp_path / GUIDE_FILE)
        app.start_menu()
        app.pump()
        assert app.screen.button("guide").label == "First-game guide: on"
        press(app, f"players{players}")
        press(app, "start")
        shown: list[tuple[str, int]] = []
        # The secret comes up over the first peek, before anybody looks.
        assert app.screen.name == "peek" and _topic(app) == "secret"
        hold_rect = app.screen.button("hold").rect
        hold(app, clock, hold_rect.center, release=False)
        assert not app.screen.holding  # the card takes the press: nobody sees a clan yet
        pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=0.5, y=0.5, dx=0.0, dy=0.0,
                                             finger_id=0, touch_id=1, pressure=1.0))
        app.pump()
        shown.append((_got_it(app), 0))
        while app.screen.name == "peek":  # the peeks work as without the guide
            assert app.overlay is None
            hold(app, clock, app.screen.button("hold").rect.center)
            press(app, "done")
        assert app.screen.name == "play"
        _close_all(app, shown)
        assert shown == [("secret", 0), ("move", 0)]
        expected: list[tuple[str, int]] = [("secret", 0), ("move", 0)]
        session = app.session
        while not session.is_over:
            before = session.public()
            move = rng.choice(list(before.legal_moves))
            tap_move(app, move)
            after = session.public()
            expected += [(t, after.ply) for t in _expected(before, after, move)]
            finish_animation(app, clock)
            _close_all(app, shown)
        assert app.screen.name == "reveal"
        _close_all(app, shown)
    firsts = _first_occurrences(expected)
    assert shown == [*firsts, ("end", session.public().ply)]
    assert {t for t, _ in shown} == set(TOPICS)
    # Finished: remembered on the device.
    assert json.loads((tmp_path / GUIDE_FILE).read_text()) == {"version": 1, "done": True}
    assert GuideMemory(tmp_path / GUIDE_FILE).done


def test_nothing_happens_under_a_card():
    with display_app() as (app, clock):
        _guided(app, None)
        app.begin(random_session(3, moves=10), peeks=False)
        app.pump()
        assert _topic(app) == "secret"  # no peeks at this table: explained on the board
        session = app.session
        ply = session.public().ply
        src = min(session.movable())
        dst = session.legal_targets(src)[0]
        tap(app, territory_point(app, src))
        tap(app, territory_point(app, dst))
        hold(app, clock, territory_point(app, src))
        assert app.screen.selected is None and app.screen.info is None
        tap(app, app.screen.button("menu").rect.center)
        tap(app, app.screen.button("peek0").rect.center)
        assert app.screen.name == "play" and app.screen.dialog is None
        assert session.public().ply == ply and _topic(app) == "secret"
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0,
                                             unicode="", scancode=0))
        app.pump()  # Escape is "Got it"
        assert _topic(app) == "move"
        _got_it(app)
        app.pump()
        assert app.overlay is None
        tap_move(app, Move(src, dst))
        assert session.public().ply == ply + 1


def test_a_computer_waits_until_the_card_is_closed():
    bots = Bots()
    with display_app() as (app, clock):
        _guided(app, None)
        app.table.bots = bots
        app.begin(computer_to_move(3, moves=12), peeks=False)
        session = app.session
        ply = session.public().ply
        app.pump()
        assert _topic(app) == "secret"
        worker_done(app)  # it may think meanwhile ...
        for _ in range(3):
            clock.advance(BOT_PAUSE_MS * 10)
            app.pump()
        assert session.public().ply == ply  # ... but it does not move under the card
        _got_it(app)
        assert _topic(app) == "move"
        clock.advance(BOT_PAUSE_MS * 10)
        app.pump()
        assert session.public().ply == ply
        _got_it(app)
        app.pump()
        assert session.public().ply == ply  # the pause starts when the board is back
        clock.advance(BOT_PAUSE_MS)
        app.pump()
        assert session.public().ply == ply + 1


class _Table:
    """Just what the guide reads of a session: the public view and the seats."""

    def __init__(self, villages=(), ply=9) -> None:
        self.seats = [Seat("Anna"), Seat("Ben")]
        self._obs = SimpleNamespace(villages=tuple(villages), ply=ply)

    def public(self):
        return self._obs

    def seat_of(self, player: int) -> int:
        return player


def _offered(events, villages=()) -> list[Tip]:
    guide = Guide(GuideMemory(None))
    guide.offer_events(events, _Table(villages))  # type: ignore[arg-type]
    return guide.queue


def test_strife_is_explained_when_five_clans_meet_even_if_no_hut_is_lost():
    """R12.2: five clans in a village is strife; a clan with one hut there loses it."""
    founded = [VillageFounded(5, 3, 1, 1)]
    all_two = Village(5, 3, 1, 1, (2, 2, 2, 2, 2), 10, FAVOURABLE, ())
    assert [t.topic for t in _offered(founded, [all_two])] == ["village", "strife"]
    lost_two = Village(5, 3, 1, 1, (2, 0, 3, 0, 2), 7, NEUTRAL, ("blue", "yellow"))
    tips = _offered([*founded, Strife(5, ("blue", "yellow"))], [lost_two])
    assert [(t.topic, t.count) for t in tips] == [("village", 0), ("strife", 2)]
    assert tips[0].name == "Ben" and tips[0].value == 7 and tips[0].chip == 3
    four = Village(5, 3, 1, 1, (1, 1, 1, 1, 0), 4, NEUTRAL, ())
    assert [t.topic for t in _offered(founded, [four])] == ["village"]


def test_seven_or_more_is_explained_where_a_group_can_still_move():
    """R9 matters for a live group of 7 or more, not for a village (R13)."""
    assert [(t.topic, t.territory, t.count) for t in _offered([Moved(0, 4, 5, 3, 8)])] == [
        ("big", 5, 8)]
    assert _offered([Moved(0, 4, 5, 3, 6)]) == []
    village = Village(5, 1, 1, 0, (2, 2, 2, 1, 1), 8, NEUTRAL, ())
    assert "big" not in [t.topic for t in _offered(
        [Moved(0, 4, 5, 3, 8), VillageFounded(5, 1, 1, 0)], [village])]


def test_a_table_of_computers_is_not_told_to_keep_a_secret():
    with display_app() as (app, _clock):
        _guided(app, None)
        app.table.bots = Bots()
        app.begin(with_kinds(random_session(3, moves=0), ("easy", "normal", "hard")),
                  peeks=False)
        app.pump()
        assert _topic(app) == "move"  # the demo explains the moves it is about to make
        _got_it(app)
        app.pump()
        assert app.overlay is None and "secret" not in app.guide.seen


# ------------------------------------------------------------------ remembered


def test_skip_is_remembered_across_restarts_and_the_start_screen_brings_it_back(tmp_path):
    path = tmp_path / GUIDE_FILE
    with display_app() as (app, clock):
        _guided(app, path)
        app.start_menu()
        app.pump()
        press(app, "start")
        assert _topic(app) == "secret"
        tap(app, app.overlay.button("guide_skip").rect.center)
        assert app.overlay is None and not app.guide.on
        assert "start screen" in app.notice[0]
        while app.screen.name == "peek":
            hold(app, clock, app.screen.button("hold").rect.center)
            press(app, "done")
        app.pump()
        assert app.screen.name == "play" and app.overlay is None
    assert json.loads(path.read_text()) == {"version": 1, "done": True}

    with display_app() as (app, clock):  # the app started again
        _guided(app, path)
        app.start_menu()
        app.pump()
        assert app.screen.button("guide").label == "First-game guide: off"
        press(app, "start")
        assert app.screen.name == "peek" and app.overlay is None
        app.start_menu()
        app.pump()
        press(app, "guide")  # a family that wants it back
        assert app.screen.button("guide").label == "First-game guide: on"
        assert json.loads(path.read_text()) == {"version": 1, "done": False}
        press(app, "start")
        assert _topic(app) == "secret"


@pytest.mark.parametrize("content", [b"{not json", b'{"version": 2, "done": true}',
                                     b'["done"]', b'{"version": 1, "done": "yes"}',
                                     b"\xff\xfe\x00", "directory"])
def test_a_damaged_memory_is_a_warning_and_the_guide_is_shown(content, tmp_path, caplog):
    path = tmp_path / GUIDE_FILE
    if content == "directory":
        path.mkdir()
    else:
        path.write_bytes(content)
    caplog.set_level(logging.WARNING)
    memory = GuideMemory(path)
    assert not memory.done
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(lines) == 1 and lines[0].startswith(str(path)) and "guide is shown" in lines[0]
    assert "\n" not in lines[0]
    with display_app() as (app, _clock):
        app.table.guide = Guide(memory)
        app.start_menu()
        app.pump()
        press(app, "start")
        assert _topic(app) == "secret"
        tap(app, app.overlay.button("guide_skip").rect.center)
    if content != "directory":  # rewritten whole at the next choice
        assert json.loads(path.read_text()) == {"version": 1, "done": True}
        assert GuideMemory(path).done


def test_a_memory_that_cannot_be_written_lasts_until_the_game_stops(tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    memory = GuideMemory(blocker / GUIDE_FILE)
    caplog.set_level(logging.WARNING)
    memory.set_done(True)
    assert memory.done
    assert any("cannot save the guide setting" in r.getMessage() for r in caplog.records)


# ------------------------------------------------------------------ undo and resume


def _before_first_village(seed: int = 3):
    """A 3-player game just before a move that founds the first village (and that move)."""
    rng = random.Random(seed)
    session = random_session(3, seed=seed, moves=0)
    while True:
        obs = session.public()
        founding = [m for m in obs.legal_moves if len(session.founds(m.src, m.dst)) == 1]
        if founding:
            return session, founding[0]
        moves = [m for m in obs.legal_moves if not session.founds(m.src, m.dst)]
        m = rng.choice(moves)
        session.play(m.src, m.dst)


def test_undo_drops_a_card_not_yet_shown_and_keeps_a_shown_one():
    session, move = _before_first_village()
    session.guide_seen |= {"secret", "move"}
    with display_app() as (app, clock):
        _guided(app, None)
        app.begin(session, peeks=False)
        app.pump()
        assert app.overlay is None
        ply = session.public().ply
        tap_move(app, move)  # the village's card waits for the animation ...
        press(app, "undo")  # ... and the move is taken back meanwhile
        press(app, "undo_yes")
        finish_animation(app, clock)
        app.pump()
        assert session.public().ply == ply and app.overlay is None  # no card about nothing
        assert "village" not in app.guide.seen
        tap_move(app, move)
        finish_animation(app, clock)
        assert _topic(app) == "village"
        assert app.overlay.tip.territory == session.public().villages[0].territory
        _got_it(app)
        press(app, "undo")
        press(app, "undo_yes")
        app.pump()
        assert "village" in app.guide.seen  # explained once is enough
        tap_move(app, move)
        finish_animation(app, clock)
        assert app.overlay is None


def test_the_guide_progress_is_saved_and_resumed(tmp_path):
    session, move = _before_first_village(5)
    with display_app() as (app, clock):
        _guided(app, tmp_path / GUIDE_FILE)
        app.table.store = GameStore(tmp_path)
        app.begin(session, peeks=False)
        _close_all(app, [])
        tap_move(app, move)
        finish_animation(app, clock)
        assert _topic(app) == "village"
        _got_it(app)
    payload = json.loads((tmp_path / "game.json").read_text())["payload"]
    assert payload["guide"] == ["move", "secret", "village"]
    with display_app() as (app, clock):  # the power came back
        _guided(app, tmp_path / GUIDE_FILE)
        resumed, problems = GameStore(tmp_path).load(BOARD, CHART)
        assert resumed is not None and not problems
        assert resumed.guide_seen == {"secret", "move", "village"}
        app.begin(resumed, peeks=False)
        app.pump()
        assert app.screen.name == "play" and app.overlay is None


def test_a_save_from_before_the_guide_loads_with_nothing_seen(tmp_path):
    store = GameStore(tmp_path)
    store.save(random_session(3, moves=5))
    doc = json.loads(store.current.read_text())
    del doc["payload"]["guide"]
    from clans_pi.saving.store import checksum, payload_text

    doc["sha256"] = checksum(payload_text(doc["payload"]))
    store.current.write_text(json.dumps(doc))
    session, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert session is not None and not problems and session.guide_seen == set()


def test_a_seat_button_waits_under_the_card_and_the_device_peek_goes_on():
    from tests.test_ui_devices import _devices

    devices, gpio, _hand = _devices()
    with display_app() as (app, _clock):
        _guided(app, None)
        app.table.devices = devices
        app.start_menu()
        app.pump()
        press(app, "players3")
        press(app, "start")
        assert app.screen.name == "peek" and app.screen.seat == 0 and _topic(app) == "secret"
        gpio[0].events = ["press"]
        app.pump()
        gpio[0].events = ["release"]
        app.pump()
        assert app.screen.seat == 0 and _topic(app) == "secret"  # nothing under the card
        _got_it(app)
        gpio[0].events = ["press"]
        app.pump()
        gpio[0].events = ["release"]
        app.pump()
        assert app.screen.name == "peek" and app.screen.seat == 1 and app.overlay is None


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), undos=st.floats(0.05, 0.4))
def test_moves_and_undos_never_show_a_card_about_what_is_not_there(seed, undos):
    """Random games in which a move is now and then taken back at once (its cards still
    waiting): a card only ever describes the public board as it is when it shows, and each
    topic comes once per game."""
    rng = random.Random(seed)
    app, clock = offscreen_app()
    _guided(app, None)
    app.begin(random_session(3, seed=seed, moves=0), peeks=False)
    session, shown = app.session, []
    for _ in range(1000):
        app.tick(clock.now)
        if app.overlay is not None:
            tip, obs = app.overlay.tip, session.public()
            villages = {v.territory: v for v in obs.villages}
            if tip.topic in ("village", "strife"):
                v = villages[tip.territory]
                assert v.chip == tip.chip or tip.topic == "strife"
            if tip.topic == "strife":
                met = {CLANS[c] for c, n in enumerate(villages[tip.territory].huts) if n}
                assert len(met | set(villages[tip.territory].lost)) == NUM_CLANS
            if tip.topic == "epoch":
                assert obs.epoch == tip.epoch
            if tip.topic == "big":
                assert sum(obs.huts[tip.territory]) >= BIG_GROUP
            shown.append(tip.topic)
            app.close_tip()
            continue
        if app.screen.name != "play":
            break
        screen = app.screen
        legal = list(session.public().legal_moves)
        if not legal:  # the last move was played: the reveal comes after its pause
            clock.advance(5000)
            continue
        m = rng.choice(legal)
        screen.move_huts(m.src, m.dst)
        if screen.order is not None:
            for t in screen.order.founds[:-1]:
                screen.tap_territory(t)
            screen.found()
        if rng.random() < undos and session.can_undo:  # before its cards could show
            screen.ask_undo()
            screen.button("undo_yes").action()
        clock.advance(5000)
    assert app.screen.name == "reveal"
    assert len(shown) == len(set(shown))
    assert {"secret", "move", "village", "epoch", "end"} <= set(shown)
