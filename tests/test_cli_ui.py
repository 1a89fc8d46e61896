"""The command line's display side: `clans-pi render` and `clans-pi play` without a display."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from clans_pi.cli import main
from clans_pi.ui.display import choose_driver
from tests.ui_helpers import finished_session, random_session


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def saved_game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_session(3, moves=20).to_json()))
    return path


@pytest.fixture
def finished_record(tmp_path: Path) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(finished_session(3).to_record()))
    return path


@pytest.mark.parametrize(("screen", "size"), [("play", "1024x600"), ("peek", "800x480"),
                                              ("rules", "720x1280"), ("start", "1920x1080")])
def test_render_writes_a_png_of_the_asked_size(capsys, saved_game, tmp_path, screen, size):
    out = tmp_path / f"{screen}.png"
    code, _, err = run(capsys, "render", str(saved_game), "--size", size, "--screen", screen,
                       "-o", str(out))
    assert code == 0, err
    image = pygame.image.load(str(out))
    assert image.get_size() == tuple(int(x) for x in size.split("x"))


def test_render_a_finished_record_reveal_and_board_rotated(capsys, finished_record, tmp_path):
    out = tmp_path / "reveal.png"
    assert run(capsys, "render", str(finished_record), "--screen", "reveal", "-o", str(out))[0] == 0
    out2 = tmp_path / "board.png"
    code, _, _ = run(capsys, "render", str(finished_record), "--screen", "board", "--rotate",
                     "90", "-o", str(out2))
    assert code == 0
    assert pygame.image.load(str(out2)).get_size() == (480, 800)


def test_render_a_finished_games_replay_at_its_last_move(capsys, finished_record, tmp_path,
                                                          saved_game):
    """--screen replay: the past games' replay of a record, at its last move, the seats as
    the record's table has them (pictures) when it keeps one."""
    from tests.history_helpers import finished_record as kept_record

    out = tmp_path / "replay.png"
    assert run(capsys, "render", str(finished_record), "--screen", "replay", "-o",
               str(out))[0] == 0
    assert pygame.image.load(str(out)).get_size() == (800, 480)
    kept = tmp_path / "kept.json"
    kept.write_text(json.dumps(kept_record([("Anna", "fox", "human"), ("Ben", "bear", "hard")],
                                           3)))
    assert run(capsys, "render", str(kept), "--screen", "replay", "--size", "720x1280", "-o",
               str(out))[0] == 0
    code, _, err = run(capsys, "render", str(saved_game), "--screen", "replay", "-o", str(out))
    assert code == 1 and err.strip() == ("clans-pi render: the game is not over yet: --screen "
                                         "replay needs a finished game")


def test_render_draws_the_clans_as_a_settings_file_shows_them(capsys, tmp_path):
    """--config: the fifth clan white, as the file says; a bad value is one line and keeps
    its default."""
    from clans_pi.ui.theme import CLAN_COLORS
    from tests.ui_helpers import with_clans

    finished_record = tmp_path / "record.json"
    game = with_clans(finished_session(3), ("black", "blue", "yellow"))
    finished_record.write_text(json.dumps(game.to_record()))

    def reveal(*config: str) -> tuple[pygame.Surface, str]:
        out = tmp_path / "reveal.png"
        code, _, err = run(capsys, "render", str(finished_record), "--screen", "reveal", "-o",
                           str(out), *config)
        assert code == 0, err
        return pygame.image.load(str(out)), err

    def count(picture: pygame.Surface, colour: tuple[int, int, int]) -> int:
        w, h = picture.get_size()
        return sum(picture.get_at((x, y))[:3] == colour for x in range(0, w) for y in range(h))

    settings = tmp_path / "config.toml"
    settings.write_text('[display]\nfifth_clan = "white"\n')
    plain, _ = reveal()
    white, err = reveal("--config", str(settings))
    assert err == ""
    assert count(white, CLAN_COLORS["white"]) > 20 and count(plain, CLAN_COLORS["white"]) == 0
    settings.write_text('[display]\nclan_marks = 2\n')
    _, err = reveal("--config", str(settings))
    assert err.strip() == (f"clans-pi render: {settings}: display.clan_marks: must be true or "
                           "false, not 2; using True")


def test_render_errors_are_one_line(capsys, saved_game, finished_record, tmp_path):
    out = str(tmp_path / "x.png")
    code, _, err = run(capsys, "render", str(saved_game), "--screen", "reveal", "-o", out)
    assert code == 1
    assert err.strip() == ("clans-pi render: the game is not over yet: --screen reveal needs "
                           "a finished game")
    code, _, err = run(capsys, "render", str(finished_record), "--screen", "play", "-o", out)
    assert code == 1 and "the game is over" in err and err.count("\n") == 1
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "clans-record/1", "players": ["A"]}')
    code, _, err = run(capsys, "render", str(bad), "-o", out)
    assert code == 1 and err.startswith("clans-pi render: record:") and err.count("\n") == 1
    code, _, err = run(capsys, "render", str(saved_game), "-o",
                       str(tmp_path / "no" / "dir" / "x.png"))
    assert code == 1 and "cannot write" in err and err.count("\n") == 1


def _differs(a: pygame.Surface, b: pygame.Surface, area: pygame.Rect) -> bool:
    return any(a.get_at((x, y)) != b.get_at((x, y))
               for x in range(area.left, area.right, 2) for y in range(area.top, area.bottom, 2))


def test_render_the_start_screen_as_the_table_shows_it_when_it_starts(capsys, tmp_path):
    """--screen start without a game file: as the table starts with these settings and this
    state (scripts/test-image compares a booted card's screen with it): --kiosk adds
    Switch off, a state directory Past games, and a broken settings file its notice."""
    shots = {}
    state = tmp_path / "state"
    state.mkdir()
    bad = tmp_path / "clans-pi.toml"
    bad.write_text('language = "de"\n[seats\n')
    for name, extra in (("plain", []), ("kiosk", ["--kiosk"]),
                        ("kept", ["--kiosk", "--state-dir", str(state)]),
                        ("broken", ["--kiosk", "--state-dir", str(state), "--config", str(bad)])):
        out = tmp_path / f"{name}.png"
        code, _, err = run(capsys, "render", "--screen", "start", *extra, "-o", str(out))
        assert code == 0, err
        shots[name] = pygame.image.load(str(out))
        assert shots[name].get_size() == (800, 480)
    switch_off, bottom, notice = (pygame.Rect(10, 10, 170, 50), pygame.Rect(0, 420, 800, 60),
                                  pygame.Rect(100, 12, 600, 40))
    assert _differs(shots["plain"], shots["kiosk"], switch_off)
    assert not _differs(shots["plain"], shots["kiosk"], bottom)
    assert _differs(shots["kiosk"], shots["kept"], bottom)  # Past games
    assert _differs(shots["kept"], shots["broken"], notice)
    assert not _differs(shots["kept"], shots["broken"], bottom)


def test_the_rendered_start_screen_says_the_settings_problems_in_their_language(
        monkeypatch, tmp_path):
    """As the table does at its start: the language first, then the notices in it."""
    from clans_pi.settings.config import Config, Problem
    from clans_pi.ui import languages
    from clans_pi.ui.app import App
    from clans_pi.ui.run import render_start
    from tests.ui_helpers import BOARD, CHART

    said: list[str] = []
    monkeypatch.setattr(App, "notify", lambda self, text, ms=0: said.append(text))
    try:
        render_start(BOARD, CHART, size=(800, 480), out=tmp_path / "start.png",
                     settings=Config(language="de"),
                     problems=[Problem(tmp_path / "config.toml", "sound: must be true or "
                                       "false, not 'loud'; using True")])
    finally:
        assert languages.use("en") is None
    assert len(said) == 1 and said[0].startswith("Eine Einstellung"), said


def test_render_start_options_go_together_or_say_so(capsys, saved_game, tmp_path):
    out = str(tmp_path / "x.png")
    code, _, err = run(capsys, "render", "--screen", "play", "-o", out)
    assert (code, err) == (1, "clans-pi render: --screen play needs a game file (FILE)\n")
    code, _, err = run(capsys, "render", str(saved_game), "--kiosk", "-o", out)
    assert (code, err) == (1, "clans-pi render: --kiosk and --state-dir go with --screen start "
                              "without a FILE\n")
    code, _, err = run(capsys, "render", "--screen", "start", "--state-dir",
                       str(tmp_path / "none"), "-o", out)
    assert (code, err) == (1, f"clans-pi render: --state-dir {tmp_path / 'none'}: no such "
                              "directory\n")


def test_bad_size_is_refused(capsys, saved_game):
    with pytest.raises(SystemExit) as exc:
        main(["render", str(saved_game), "--size", "big", "-o", "x.png"])
    assert exc.value.code == 2
    assert "expected WIDTHxHEIGHT like 800x480" in capsys.readouterr().err


@pytest.mark.parametrize("driver", [None, "x11"])
def test_play_without_a_display_says_so_in_one_line(driver):
    """No desktop and no usable console display: one line, exit 1, and never SDL's
    invisible offscreen fallback (a game nobody can see)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    if driver:
        env["SDL_VIDEODRIVER"] = driver
    proc = subprocess.run([sys.executable, "-m", "clans_pi.cli", "play"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0] == ("clans-pi play: no screen to draw on: run it on a desktop, or on the "
                        "Pi's own screen (not over SSH), or try --headless")
    assert "Traceback" not in proc.stderr


def test_driver_choice_follows_the_session():
    assert choose_driver({}) == "kmsdrm"
    assert choose_driver({"DISPLAY": ":0"}) == "x11"
    assert choose_driver({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}) == "wayland,x11"
    assert choose_driver({"SDL_VIDEODRIVER": "kmsdrm", "DISPLAY": ":0"}) is None


def test_play_opens_the_start_screen_and_draws_a_frame(saved_game):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    for extra in ([], ["--load", str(saved_game), "--rotate", "270"]):
        proc = subprocess.run([sys.executable, "-m", "clans_pi.cli", "play", "--first-frame",
                               *extra], env=env, capture_output=True, text=True, timeout=60,
                              check=False)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == "" and "Traceback" not in proc.stderr


def test_play_says_in_its_log_which_path_the_computers_think_on():
    """Its first lines in the journal: the version and settings, then the computers' path
    (the image's test reads it from the card's journal)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "CLANS_PI_LOG": "info", "CLANS_PI_CORE": "python"}
    proc = subprocess.run([sys.executable, "-m", "clans_pi.cli", "play", "--first-frame"],
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines()[1] == ("clans-pi: computer players: Python path: "
                                           "CLANS_PI_CORE=python chooses the Python path")


def test_play_with_seat_devices_configured_starts_off_a_pi(tmp_path):
    """GPIO seats on the mock pin factory and handheld seats with none plugged in: the game
    opens; nothing is wrong enough to stop it."""
    config = tmp_path / "config.toml"
    config.write_text('state_dir = "%s"\n[seats]\n1 = "gpio"\n2 = "handheld"\n3 = "laser"\n'
                      % (tmp_path / "state"))
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "GPIOZERO_PIN_FACTORY": "mock"}
    proc = subprocess.run([sys.executable, "-m", "clans_pi.cli", "play", "--first-frame",
                           "--config", str(config)], env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (f"clans-pi: {config}: seats.3: 'laser' is not one of "
                                   "screen, gpio, handheld, phone; this seat uses the screen")


def test_the_touchscreen_game_resumes_a_saved_game(tmp_path):
    """A game saved in the state directory (as after a power cut) opens on the play screen
    at the same move; a damaged save is reported in one sentence and the older one used."""
    from clans_pi.saving.store import GameStore
    from tests.ui_helpers import BOARD, CHART, display_app

    store = GameStore(tmp_path)
    session = random_session(3, moves=12)
    store.save(session)
    m = session.public().legal_moves[0]
    session.play(m.src, m.dst)
    store.save(session)
    store.current.write_text("{broken")
    resumed, problems = store.load(BOARD, CHART)
    assert resumed.public().ply == 12 and len(problems) == 1
    with display_app() as (app, _clock):
        app.table.store = GameStore(tmp_path)
        app.begin(resumed, peeks=False)
        assert app.screen.name == "play"
        m = resumed.public().legal_moves[0]
        app.screen.move_huts(m.src, m.dst)
        if app.screen.order is not None:
            app.screen.found()
        again, problems = GameStore(tmp_path).load(BOARD, CHART)
        assert problems == [] and again.public().ply == 13  # saved at once
        app.screen.ask_undo()
        app.screen.answer("undo_yes")
        again, _ = GameStore(tmp_path).load(BOARD, CHART)
        assert again.public().ply == 12  # the undo is saved too


@pytest.mark.parametrize(("argv", "why"), [
    (["--size", "200x200"], "--size 200x200 is smaller than the game can draw"),
    (["--size", "320x240"], "--size 320x240 is smaller than the game can draw"),
    (["--size", "480x320", "--rotate", "90"],
     "--size 480x320 turned by 90° is 320x480, smaller than the game can draw"),
])
def test_play_refuses_a_size_it_cannot_lay_out_in_one_line(capsys, tmp_path, monkeypatch,
                                                           argv, why):
    monkeypatch.setattr("clans_pi.ui.run.play", lambda *a, **kw: pytest.fail("window opened"))
    code, out, err = run(capsys, "play", *argv, "--state-dir", str(tmp_path))
    assert code == 1 and out == ""
    assert err == (f"clans-pi play: {why}: it needs at least 480x320 (480 wide, 320 high)\n")


def test_render_refuses_a_size_it_cannot_lay_out_in_one_line(capsys, saved_game, tmp_path):
    out = tmp_path / "x.png"
    code, _, err = run(capsys, "render", str(saved_game), "--size", "320x240", "-o", str(out))
    assert code == 1 and not out.exists()
    assert err == ("clans-pi render: --size 320x240 is smaller than the game can draw: it "
                   "needs at least 480x320 (480 wide, 320 high)\n")
    code, _, _ = run(capsys, "render", str(saved_game), "--size", "480x320", "-o", str(out))
    assert code == 0 and pygame.image.load(str(out)).get_size() == (480, 320)


def test_the_smallest_size_is_named_in_help(capsys):
    for command in ("play", "render"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "at least 480x320" in " ".join(capsys.readouterr().out.split())


def test_a_full_screen_too_small_for_the_game_is_refused(tmp_path):
    """--fullscreen ignores --size: the screen SDL opens is checked instead (here the dummy
    driver's window of the asked size stands in for a small screen)."""
    from clans_pi.rules import ClansError
    from clans_pi.saving.files import load_board, load_chart
    from clans_pi.ui.run import play

    with pytest.raises(ClansError, match=r"^the screen, 320x240, is smaller than the game can "
                       r"draw: it needs at least 480x320 \(480 wide, 320 high\)"):
        play(load_board(None), load_chart(None), size=(320, 240), fullscreen=False, rotate=0,
             seed=1, state_dir=tmp_path, first_frame_only=True)


def _save_file(tmp_path: Path, session) -> Path:
    from clans_pi.saving.store import GameStore

    store = GameStore(tmp_path / "state")
    store.save(session)
    return store.current


def test_render_and_load_take_the_games_own_save_file(capsys, tmp_path):
    import random

    from clans_pi.saving.files import load_board, load_chart
    from clans_pi.session import Seat, Session
    from clans_pi.ui.run import load_game

    seats = [Seat("Anna", "hare"), Seat("Owl (Normal)", "owl", "normal"), Seat("Ben", "cat")]
    session = Session.new(seats, load_board(None), load_chart(None), random.Random(3))
    for _ in range(6):
        src, dst = next((s, d) for s in sorted(session.movable())
                        for d in session.legal_targets(s))
        session.play(src, dst, session.founds(src, dst) or None)
    path = _save_file(tmp_path, session)
    out = tmp_path / "x.png"
    code, _, err = run(capsys, "render", str(path), "-o", str(out))
    assert (code, err) == (0, "") and out.exists()
    loaded = load_game(json.loads(path.read_text()), load_board(None), load_chart(None),
                       str(path))
    assert loaded.seats == session.seats and loaded.to_json() == session.to_json()
    # The save's own checks: a changed payload is refused in one line, never played.
    doc = json.loads(path.read_text())
    doc["payload"]["seats"][0]["name"] = "Mallory"
    path.write_text(json.dumps(doc))
    code, _, err = run(capsys, "render", str(path), "-o", str(out))
    assert code == 1 and err == f"clans-pi render: {path}: checksum mismatch\n"


def test_a_loaded_record_gives_seats_their_pictures_and_computers_by_player():
    from clans_pi.saving.files import load_board, load_chart
    from clans_pi.session import Seat, Session
    from clans_pi.ui.run import load_game

    board, chart = load_board(None), load_chart(None)
    seats = [Seat("Anna", "hare"), Seat("Owl (Normal)", "owl", "normal"), Seat("Fox", "fox"),
             Seat("Bear (Hard)", "bear", "hard")]
    import random

    session = Session.new(seats, board, chart, random.Random(5))
    record = session.to_record()
    loaded = load_game(record, board, chart, "record.json")
    by_name = {s.name: s for s in loaded.seats}
    assert [s.name for s in loaded.seats] == record["players"]
    assert by_name["Owl (Normal)"] == Seat("Owl (Normal)", "owl", "normal")
    assert by_name["Bear (Hard)"] == Seat("Bear (Hard)", "bear", "hard")
    assert by_name["Fox"] == Seat("Fox", "fox")
    # A name no picture is called gets a picture nobody else has, whatever the turn order.
    assert by_name["Anna"].is_human
    assert by_name["Anna"].avatar not in {"owl", "bear", "fox", ""}
