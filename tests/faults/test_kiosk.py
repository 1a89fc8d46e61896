"""Leaving the game on the kiosk: Quit used to exit 0 and the unit, which restarts
only on failure, left tty1 black until a power cycle. Now the kiosk's menu offers Switch
off, which asks for a confirmation and exits with kiosk.SWITCH_OFF (the unit powers the Pi
off: tests/test_systemd_unit.py runs its ExecStopPost=), Ctrl+Q exits with kiosk.CONSOLE
(the login prompt comes back), and every way out keeps the game."""

from __future__ import annotations

import random

import pygame
import pytest

from clans_pi import cli
from clans_pi.saving.store import GameStore
from clans_pi.service import kiosk
from clans_pi.session import Session
from clans_pi.table.computers import BOT_PAUSE_MS
from clans_pi.table.guide import GUIDE_FILE, GuideMemory
from clans_pi.ui.app import App

from ..bot_fakes import Bots, computer_to_move, worker_done
from ..ui_helpers import (
    BOARD,
    CHART,
    display_app,
    press,
    random_session,
    tap,
    territory_point,
)
from . import fault


def _saved_game(state_dir) -> Session:
    """A game in progress saved in ``state_dir``, on a device that has had its first-game
    guide (so no guide card covers the menu)."""
    session = random_session(3, moves=12)
    GameStore(state_dir).save(session)
    GuideMemory(state_dir / GUIDE_FILE).set_done(True)
    return session


def _drive(monkeypatch, steps) -> None:
    """Make the real program's main loop do ``steps(app)`` (taps on the real screens)
    instead of waiting for a finger."""

    def run(self: App, *, first_frame_only: bool = False) -> None:
        self.pump()
        steps(self)

    monkeypatch.setattr(App, "run", run)


@fault("kiosk", "Menu → Quit on the kiosk (the screen stayed black)",
       sees="Switch off, after a confirmation; the Pi powers off",
       kept="the game, resumed at the next start")
def test_switch_off_on_the_kiosk_keeps_the_game_and_asks_the_service_to_power_off(
        tmp_path, monkeypatch):
    session = _saved_game(tmp_path)
    shown: list[str] = []

    def steps(app: App) -> None:
        assert app.screen.name == "play"  # resumed
        press(app, "menu")
        shown.append(app.screen.dialog.text)
        assert app.screen.button("menu_off").label == "Switch off"
        with pytest.raises(KeyError):
            app.screen.button("menu_quit")
        press(app, "menu_off")
        assert app.screen.name == "confirm"
        shown.append(app.screen.text)
        press(app, "confirm_no")  # changed their mind: back to the same game
        assert app.screen.name == "play" and app.running
        press(app, "menu")
        press(app, "menu_off")
        press(app, "confirm_yes")
        assert not app.running

    _drive(monkeypatch, steps)
    status = cli.main(["play", "--kiosk", "--state-dir", str(tmp_path), "--size", "800x480"])
    assert status == kiosk.SWITCH_OFF
    assert "Switch off keeps it" in shown[0] and "not kept" not in shown[0]
    assert "The game is kept" in shown[1]
    resumed, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == []
    assert resumed is not None and resumed.public().ply == session.public().ply


@fault("kiosk", "Ctrl+Q on the kiosk's keyboard",
       sees="the login prompt on the screen", kept="the game, resumed at the next start")
def test_ctrl_q_on_the_kiosk_asks_for_the_console_and_on_a_desktop_just_quits():
    ctrl_q = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_LCTRL,
                                unicode="q", scancode=0)
    for is_kiosk, event, status in ((True, ctrl_q, kiosk.CONSOLE), (False, ctrl_q, 0),
                                    # SDL's quit event: a closed window on a desktop; on the
                                    # kiosk a SIGTERM SDL caught (a stop or restart of the
                                    # service before the game's own handler): nothing asked.
                                    (True, pygame.event.Event(pygame.QUIT), 0),
                                    (False, pygame.event.Event(pygame.QUIT), 0)):
        with display_app() as (app, _clock):
            app.kiosk = is_kiosk
            app.start_menu()
            pygame.event.post(event)
            app.pump()
            assert not app.running and app.exit_status == status, (is_kiosk, event)


def test_a_stop_while_the_kiosk_starts_asks_the_service_for_nothing(tmp_path, monkeypatch):
    """A SIGTERM that arrives after the display opened but before the game's own handler
    was set becomes SDL's quit event: status 0, so the service neither powers off nor
    starts the login prompt (a `systemctl restart` then brings the game back)."""
    import os
    import signal

    from clans_pi.ui import run as run_module

    real_open = run_module.Sounds.open

    def open_then_stopped(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGTERM)  # SDL's handler has it: a quit event
        return real_open(*args, **kwargs)

    monkeypatch.setattr(run_module.Sounds, "open", open_then_stopped)
    monkeypatch.setattr(App, "run", lambda self, *, first_frame_only=False: self.pump())
    assert cli.main(["play", "--kiosk", "--state-dir", str(tmp_path)]) == 0


@fault("kiosk", "Switch off while the card refuses saves (read-only or full)",
       sees="the menu and the confirmation say the game goes on from the last saved move",
       kept="the last move that was saved")
def test_switch_off_says_the_truth_when_saving_fails(tmp_path, monkeypatch):
    _saved_game(tmp_path)
    shown: list[str] = []

    def refuse(self, session):
        raise OSError(30, "Read-only file system")

    def steps(app: App) -> None:
        monkeypatch.setattr(GameStore, "save", refuse)
        app.save()  # the next move's save fails
        app.pump()
        press(app, "menu")
        shown.append(app.screen.dialog.text)
        press(app, "menu_off")
        shown.append(app.screen.text)
        press(app, "confirm_yes")

    _drive(monkeypatch, steps)
    assert cli.main(["play", "--kiosk", "--state-dir", str(tmp_path)]) == kiosk.SWITCH_OFF
    assert "cannot be saved now" in shown[0] and "keeps it" not in shown[0]
    assert "cannot be saved now" in shown[1] and "is kept" not in shown[1]


def test_the_desktop_menu_says_quit_keeps_the_game(tmp_path, monkeypatch):
    _saved_game(tmp_path)
    texts: list[str] = []

    def steps(app: App) -> None:
        press(app, "menu")
        texts.append(app.screen.dialog.text)
        with pytest.raises(KeyError):
            app.screen.button("menu_off")
        press(app, "menu_quit")

    _drive(monkeypatch, steps)
    assert cli.main(["play", "--state-dir", str(tmp_path), "--size", "800x480"]) == 0
    assert "Quit keeps it" in texts[0]
    assert GameStore(tmp_path).load(BOARD, CHART)[0] is not None


def test_switch_off_is_on_the_kiosks_start_screen_only():
    for is_kiosk in (True, False):
        app = App(BOARD, CHART, rng=random.Random(1), kiosk=is_kiosk)
        app.start_menu()
        names = {b.name for b in app.screen.buttons}
        assert ("switch_off" in names) == is_kiosk
    app.start_menu()
    assert app.screen.name == "start"
    app.kiosk = True
    app.start_menu()
    start = app.screen
    press_off = start.button("switch_off")
    assert press_off.action is not None
    press_off.action()
    assert app.screen.name == "confirm" and "game is kept" not in app.screen.text
    app.screen.button("confirm_no").action()
    assert app.screen is start and app.running
    app.screen.button("switch_off").action()
    app.screen.button("confirm_yes").action()
    assert app.exit_status == kiosk.SWITCH_OFF


@fault("kiosk", "A tap on huts while a computer's move is still being shown (the tap only "
       "ended the showing: the next tap chose the huts instead of moving them)",
       sees="the showing ends and the same tap chooses the huts; the next one moves them",
       kept="the move played, the tap")
@pytest.mark.parametrize("how", ["finger", "mouse"])
def test_a_tap_during_a_computers_move_ends_its_showing_and_still_counts(how):
    with display_app() as (app, clock):
        app.table.bots = Bots()
        session = computer_to_move(2)  # a computer, then the person
        app.begin(session, peeks=False)
        ply = session.public().ply
        app.pump()
        worker_done(app)
        clock.advance(BOT_PAUSE_MS)
        app.pump()
        assert session.public().ply == ply + 1 and app.screen.anim is not None
        assert session.seats[session.current_seat].is_human
        src = min(session.movable())
        tap(app, territory_point(app, src), how=how)
        assert app.screen.anim is None  # the showing is over ...
        assert app.screen.selected == src  # ... and the tap chose the huts
        target = session.legal_targets(src)[0]
        tap(app, territory_point(app, target), how=how)  # "then where they go"
        assert session.public().ply == ply + 2 or app.screen.order is not None


@fault("kiosk", "A tap that ended the showing of a person's own move chose the next "
       "person's huts there (their first tap then played a move they never meant)",
       sees="the showing ends; nothing is chosen until the next person taps",
       kept="the move played; the next person's turn untouched")
def test_a_tap_during_a_person_s_own_move_only_ends_its_showing():
    with display_app() as (app, _clock):
        session = random_session(2, moves=6)  # two people
        app.begin(session, peeks=False)
        app.pump()
        ply = session.public().ply
        src = min(session.movable())
        tap(app, territory_point(app, src))
        tap(app, territory_point(app, session.legal_targets(src)[0]))
        assert app.screen.order is None  # this deal's move founds no villages to order
        assert session.public().ply == ply + 1 and app.screen.anim is not None
        nxt = min(session.movable())
        tap(app, territory_point(app, nxt))  # the mover's finger, skipping the showing
        assert app.screen.anim is None
        assert app.screen.selected is None  # nobody's huts chosen by it
