"""The headless game's output (``clans-pi play --headless``): what it prints at the end
names each player's clan, in the language the table's screen would use (the start screen's
remembered choice, else the settings'), as the screen names it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clans_pi import cli, i18n
from clans_pi.saving.store import GameStore
from tests.ui_helpers import BOARD, CHART

from . import fault

#: Each clan's name in German (clans_pi/locale/de), and the engine's ids.
GERMAN = {"Rot", "Blau", "Grün", "Gelb", "Schwarz"}
IDS = {"red", "blue", "green", "yellow", "black"}


@pytest.fixture(autouse=True)
def english_after() -> None:
    yield
    i18n.set_language("en")


def _result_lines(out: str) -> list[tuple[str, str]]:
    """(player, clan) from the German result lines: ``NAME: CLAN SCORE[ Sieger]``."""
    found = re.findall(r"^(Random \d): (\S+) \d+(?: Sieger)?$", out, re.MULTILINE)
    assert len(found) >= 2, out
    return found


@fault("table", "The headless game printed the clans at its end as the engine's ids "
       "(red, blue), not in the players' language",
       sees="each player's clan by its name in the language the screen would use",
       kept="the game and its record")
@pytest.mark.parametrize("where", ["remembered", "settings"])
def test_the_headless_game_names_clans_in_the_chosen_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    state = tmp_path / "state"
    state.mkdir()
    argv = ["play", "--headless", "--seats", "random,random,random", "--state-dir",
            str(state), "--seed", "4"]
    if where == "remembered":  # the start screen's choice, kept in the state directory
        (state / "language").write_text("de\n", encoding="utf-8")
    else:
        config = tmp_path / "config.toml"
        config.write_text('language = "de"\n', encoding="utf-8")
        argv += ["--config", str(config)]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    clans = [clan for _name, clan in _result_lines(out)]
    assert set(clans) <= GERMAN and len(set(clans)) == len(clans)
    assert not IDS & set(clans)


@fault("table", "The headless game with --quiet printed nothing, not even its result",
       sees="only the result: each player's clan, score and the winner, a line each",
       kept="the game and its record")
def test_the_quiet_headless_game_prints_its_result_and_nothing_else(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--headless", "--seats", "random,random,random", "--seed", "4"]
    assert cli.main([*argv, "--state-dir", str(tmp_path / "told")]) == 0
    told = capsys.readouterr().out.splitlines()
    assert cli.main([*argv, "--state-dir", str(tmp_path / "quiet"), "--quiet"]) == 0
    quiet = capsys.readouterr().out.splitlines()
    result = [line for line in told if line.startswith("Random ")]
    assert len(result) == 3 and quiet == result


#: The English words of the headless games' lines (the names of players and clans aside).
ENGLISH = {"points", "chips", "chip", "winner", "Game", "over", "after", "moves", "move",
           "founds", "village", "epoch", "strife", "lose", "their", "hut", "worth", "to",
           "nobody", "cut", "off", "too", "late", "left", "seed", "first", "record", "saved",
           "new", "game", "resumed", "favourable", "hostile", "twelfth", "grassland", "forest",
           "mountain", "on", "written"}


@fault("table", "The headless game's lines were English in every other language, but for "
       "the clans' names",
       sees="the moves, the end and the result in the language the screen would use",
       kept="the game and its record")
@pytest.mark.parametrize("saved", [False, True])
def test_the_headless_game_speaks_the_chosen_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], saved: bool) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "language").write_text("de\n", encoding="utf-8")
    argv = ["play", "--headless", "--seed", "3"]
    if saved:
        argv += ["--seats", "random,random,random", "--state-dir", str(state)]
    else:  # the quick game: the settings' state directory holds the language chosen
        config = tmp_path / "config.toml"
        config.write_text(f'state_dir = "{state}"\n', encoding="utf-8")
        argv += ["--config", str(config), "--record", str(tmp_path / "r.json")]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    if saved:
        _result_lines(out)
    else:
        assert "Punkte" in out and "Sieger" in out, out
    words = out.replace(str(tmp_path), "")  # the paths' words are the test's
    english = sorted(set(re.findall(r"[^\W\d_]+", words)) & ENGLISH)
    assert not english, f"English words {english} in:\n{out}"


ROOT = Path(__file__).resolve().parents[2]


@fault("table", "SIGTERM (systemctl stop) to the headless game during a computer's search "
       "(it died at once, its search and the lock cut off)",
       sees="one line: stopped at move N, the game kept; exit status 0, as the touchscreen",
       kept="every move printed as saved; the next start goes on at move N")
@pytest.mark.slow
def test_sigterm_stops_the_headless_game_as_it_stops_the_touchscreen(tmp_path: Path) -> None:
    state = tmp_path / "state"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    game = subprocess.Popen(
        [sys.executable, "-m", "clans_pi.cli", "play", "--headless", "--seats", "hard,hard",
         "--state-dir", str(state), "--seed", "5"],
        env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert game.stdout is not None
        lines: list[str] = []
        while not any(line.startswith("saved move 2:") for line in lines):
            line = game.stdout.readline()
            assert line, (lines, game.poll())
            lines.append(line.rstrip("\n"))
        sent = time.monotonic()
        game.send_signal(signal.SIGTERM)  # while the next move is being searched for
        out, err = game.communicate(timeout=60)
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
    lines += out.splitlines()
    assert game.returncode == 0 and err == "", (game.returncode, err)
    assert time.monotonic() - sent < 15  # the search was cancelled, not waited for
    saved = max(int(m.group(1)) for line in lines if (m := re.match(r"saved move (\d+):", line)))
    loaded, problems = GameStore(state).load(BOARD, CHART)
    assert problems == [] and loaded is not None and not loaded.is_over
    assert loaded.public().ply >= saved
    assert lines[-1] == f"stopped at move {loaded.public().ply + 1}; the game is kept", lines
    assert not any(line.startswith("Hard 1: ") for line in lines)  # no result: not over


def test_sigterm_in_the_middle_of_a_quick_game_stops_it_and_hands_the_signal_back(
        tmp_path: Path) -> None:
    """In the test's own process: SIGTERM right after move 3 was told stops the game there
    (no further move, no result), the game stays saved, and SIGTERM's handling is the one
    from before the game once it returns."""
    import random
    import threading

    from clans_pi.table.headless import run_headless

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")  # the signal would end the runner
    before = signal.getsignal(signal.SIGTERM)
    lines: list[str] = []

    def say(text: str) -> None:
        lines.append(text)
        if text.startswith("saved move 3:"):
            os.kill(os.getpid(), signal.SIGTERM)

    session = run_headless(tmp_path, ["random"] * 3, BOARD, CHART, random.Random(3), say)
    assert not session.is_over and session.public().ply == 3
    assert lines[-1] == "stopped at move 4; the game is kept", lines
    assert signal.getsignal(signal.SIGTERM) == before
    loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
    assert problems == [] and loaded is not None and loaded.public() == session.public()
    again: list[str] = []
    run_headless(tmp_path, ["random"] * 3, BOARD, CHART, random.Random(3), again.append)
    assert again[0] == "resumed at move 4"
