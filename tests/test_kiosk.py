"""The game as the Pi's service runs it: READY=1 after the first frame, the watchdog fed from
the main loop, a clean stop on SIGTERM (systemctl stop), and the video driver checked."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pygame
import pytest

from clans_pi.ui.display import check_driver, renderer_hints


def test_the_driver_sdl_chose_must_be_one_that_was_asked_for():
    check_driver("kmsdrm", "kmsdrm", True)
    # SDL's own name for it, as pygame.display.get_driver() returns it on a Pi: the service
    # asks for "kmsdrm" and must accept it (the kiosk never started before this).
    check_driver("KMSDRM", "kmsdrm", True)
    check_driver("KMSDRM", "KMSDRM", False)
    check_driver("x11", "wayland,x11", False)
    check_driver("dummy", "dummy", True)  # tests, and people who ask for it
    with pytest.raises(pygame.error, match="SDL_VIDEODRIVER=kmsdrm but SDL chose 'offscreen'"):
        check_driver("offscreen", "kmsdrm", True)
    with pytest.raises(pygame.error, match="only SDL's offscreen driver works"):
        check_driver("offscreen", "", False)


def test_kmsdrm_draws_through_gles2_and_x11_through_shared_memory():
    """On the console SDL must not take its desktop OpenGL renderer: without libGL.so.1
    (Raspberry Pi OS Lite) it loads GLES in its place and the screen stays black."""
    env: dict[str, str] = {}
    renderer_hints("KMSDRM", env)
    assert env == {"SDL_RENDER_DRIVER": "opengles2"}
    env = {"SDL_RENDER_DRIVER": "software"}  # the user's choice stands
    renderer_hints("kmsdrm", env)
    assert env == {"SDL_RENDER_DRIVER": "software"}
    env = {}
    renderer_hints("x11", env)
    assert env == {"SDL_FRAMEBUFFER_ACCELERATION": "0"}
    env = {}
    renderer_hints("dummy", env)
    assert env == {}


def _messages(sock: socket.socket, until: float) -> list[str]:
    out = []
    sock.settimeout(max(0.05, until - time.monotonic()))
    try:
        while True:
            out.append(sock.recv(4096).decode())
            sock.settimeout(0.05)
    except (TimeoutError, BlockingIOError):
        return out


@pytest.mark.slow
def test_under_systemd_ready_watchdog_and_a_clean_stop_on_sigterm(tmp_path):
    address = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "200000"}
    env.pop("WATCHDOG_PID", None)
    # As the service runs it (--kiosk): a stop asks for nothing (status 0,
    # clans_pi/service/kiosk.py).
    proc = subprocess.Popen([sys.executable, "-m", "clans_pi.cli", "play", "--kiosk",
                             "--state-dir", str(tmp_path / "state")], env=env,
                            stderr=subprocess.PIPE, text=True)
    try:
        got: list[str] = []
        deadline = time.monotonic() + 60
        while got.count("WATCHDOG=1") < 3 and time.monotonic() < deadline:
            got += _messages(sock, deadline)
        assert got[0] == "READY=1\nSTATUS=Waiting for players", got
        assert got.count("WATCHDOG=1") >= 3, got  # fed from the loop, not once
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        got += _messages(sock, time.monotonic() + 1)
        assert got[-1] == "STOPPING=1"
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()


def _play_with_a_bad_setting(tmp_path, monkeypatch, run):
    """`clans-pi play` with ``sound = "loud"`` in its settings and ``run`` as the app's main
    loop; the settings file."""
    from clans_pi import cli
    from clans_pi.ui import app as app_module

    monkeypatch.setattr(app_module.App, "run", run)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    config = tmp_path / "config.toml"
    config.write_text('sound = "loud"\n', encoding="utf-8")
    assert cli.main(["play", "--config", str(config), "--state-dir", str(tmp_path)]) == 0
    return config


def test_a_bad_setting_is_said_on_the_screen(tmp_path, monkeypatch, capsys):
    """The problem is on the screen (and on standard error, the journal); the game starts
    anyway with the default for that setting."""

    shown: list[str] = []

    def run(self, *, first_frame_only=False):
        while self.notice is not None:
            self.canvas.record = True
            self.redraw()
            # On the screen, not only kept: the banner and its words.
            assert any(r.kind == "region" and r.name == "notice" for r in self.canvas.records)
            words = " ".join(r.name for r in self.canvas.records if r.kind == "text")
            assert self.notice[0].rsplit(":", 1)[1].strip() in words
            shown.append(self.notice[0])
            self.tick(self.notice[1])
        self.quit()

    config = _play_with_a_bad_setting(tmp_path, monkeypatch, run)
    # The sentence in the players' language, the file, key and problem as logged.
    assert shown == [
        f"A setting was not used: {config}: sound: must be true or false, not 'loud'; "
        "using True",
    ]
    err = capsys.readouterr().err
    assert all(line.removeprefix("A setting was not used: ") in err for line in shown)


def test_many_settings_problems_make_one_notice_and_all_are_logged(tmp_path, monkeypatch,
                                                                     capsys):
    """Eleven mistakes in the settings: one notice naming the first and the count, not a
    minute of notices one after another; every problem is in the log."""
    from clans_pi import cli
    from clans_pi.ui import app as app_module

    shown: list[str] = []

    def run(self, *, first_frame_only=False):
        shown.extend(self.notices)
        self.quit()

    monkeypatch.setattr(app_module.App, "run", run)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    config = tmp_path / "config.toml"
    lines = ['sound = "loud"', "volume = 900", 'language = "xx"', "hints = 3",
             "[display]", "rotate = 45", 'size = "big"', "dim_after_minutes = -5",
             "fifth_clan = 7", "[computer]", "think_seconds = -1", "level = 2", "[nowhere]",
             "x = 1"]
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli.main(["play", "--config", str(config), "--state-dir", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    logged = [line for line in err.splitlines() if str(config) in line]
    assert len(logged) >= 8, err
    assert len(shown) == 1, shown
    assert shown[0].startswith(f"{len(logged)} problems in the settings; the first: {config}: ")
    assert shown[0].endswith("; all in the log")


def test_a_problem_found_while_starting_stays_a_minute_then_the_resumed_notice(
        tmp_path, monkeypatch):
    """A broken setting is on the screen for a minute, not five seconds: the appliance may
    come on while nobody watches (the image's broken clans-pi.toml check meets it through a
    slow emulator too). A kept game's "goes on" notice follows it, for the usual time."""
    from clans_pi.saving.store import GameStore
    from clans_pi.ui import app as app_module
    from tests.ui_helpers import random_session

    GameStore(tmp_path).save(random_session(3, moves=4))
    seen: list[tuple[str, int]] = []

    def run(self, *, first_frame_only=False):
        now = [1_000]
        self.clock = lambda: now[0]
        self.notice = (self.notice[0], now[0] + (self.notice[1] - app_module.monotonic_ms()))
        while self.notice is not None:
            shown, until = self.notice
            seen.append((shown, round((until - now[0]) / 1000)))
            now[0] = until - 1
            self.tick(now[0])
            assert self.notice is not None and self.notice[0] == shown  # not gone before
            now[0] = until
            self.tick(now[0])
        self.quit()

    _play_with_a_bad_setting(tmp_path, monkeypatch, run)
    assert [(text.split(":")[0], s) for text, s in seen] == [
        ("A setting was not used", app_module.START_NOTICE_MS // 1000),
        ("The game goes on where it was left.", app_module.NOTICE_MS // 1000)]


def test_the_app_clock_runs_with_only_the_display_started():
    """Regression: the app's clock was pygame.time.get_ticks(), which stays 0 until
    pygame.init(); with only the display started, long presses, animations, notices and
    the idle timers never saw time pass in the real game (tests pass a fake clock)."""
    from tests.ui_helpers import BOARD, CHART, display_app

    with display_app():
        from clans_pi.ui.app import App

        app = App(BOARD, CHART)
        first = app.clock()
        time.sleep(0.03)
        assert app.clock() > first


def test_the_games_computer_players_follow_the_thinking_time_setting():
    """[computer] think_seconds: Hard thinks that long a move, Normal searches its fixed
    iterations whatever it is; each seat has its own fixed seed (the same position gets the
    same move after an undo)."""
    from clans_pi.bots import Budget
    from clans_pi.bots.search_bot import NORMAL_ITERATIONS
    from clans_pi.table.players import ComputerPlayers
    from tests.ui_helpers import BOARD, CHART

    make = ComputerPlayers(BOARD, CHART, 2.0, seed=11, workers=1)
    hard, normal, easy = make(0, "hard"), make(1, "normal"), make(2, "easy")
    assert (hard.level, normal.level, easy.level) == ("hard", "normal", "easy")
    assert hard.budget == Budget(seconds=2.0)
    assert normal.budget == Budget(iterations=NORMAL_ITERATIONS)
    assert make(0, "hard").seed == hard.seed != normal.seed

