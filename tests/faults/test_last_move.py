"""The last move of a game is saved like every other, and that save stays until the game's
end has been shown (the reveal on the screen, the headless game's result printed): a stop at
any step between the last move and its end (during its save, during the animation before
the reveal, while the record is written, before the reveal's first frame or the result's
lines) loses nothing, the next start shows that game's end once, the start after it offers
a new game, and the finished game is kept as a record exactly once."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from clans_pi.rules.moves import Move
from clans_pi.saving.store import GameStore
from clans_pi.session import Session
from clans_pi.ui.display import Display
from tests.faults import fault
from tests.faults.test_store import Kill, Screen
from tests.ui_helpers import BOARD, CHART, display_app, finish_animation, finished_session


def _one_move_from_the_end() -> tuple[Session, Move]:
    """A game one move from its end, and that move."""
    done = finished_session(3)
    record = done.to_record()
    last = record["moves"].pop()
    session = Session.load(record, BOARD, CHART, seats=list(done.seats))
    order = last.get("order")
    return session, Move(last["from"], last["to"], None if order is None else tuple(order))


MAIN = threading.main_thread()


@contextmanager
def stop_at(monkeypatch: pytest.MonkeyPatch, root: Path, k: int) -> Iterator[list[str]]:
    """The process stops (a power cut, SIGKILL) just before its ``k``-th step on the disk
    under ``root`` (0-based: an fsync, a rename, an unlink); a file being fsynced then
    keeps only half of what was written. Yields the steps taken, as "call path". Only the
    game's own thread counts: a cache written beside it (the after-game reading's, in a
    thread of its own) is made again when lost, and its steps would come in any order."""
    steps: list[str] = []
    under = str(root.resolve())

    def step(call: str, path: Any) -> None:
        name = str(path)
        if not name.startswith(under) or threading.current_thread() is not MAIN:
            return
        if len(steps) == k:
            raise Kill
        steps.append(f"{call} {os.path.relpath(name, under)}")

    real_fsync, real_replace, real_unlink = os.fsync, os.replace, os.unlink

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        if (len(steps) == k and os.path.isfile(path) and path.startswith(under)
                and threading.current_thread() is MAIN):
            os.ftruncate(fd, os.fstat(fd).st_size // 2)  # half of it reached the card
        step("fsync", path)
        real_fsync(fd)

    def replace(src: Any, dst: Any) -> None:
        step("replace", dst)
        real_replace(src, dst)

    def unlink(path: Any, *args: Any, **kwargs: Any) -> None:
        step("unlink", path)
        real_unlink(path, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(os, "fsync", fsync)
        m.setattr(os, "replace", replace)
        m.setattr(os, "unlink", unlink)
        yield steps


def _start(monkeypatch: pytest.MonkeyPatch, state: Path) -> Screen:
    from clans_pi import cli

    screen = Screen(monkeypatch)
    assert cli.main(["play", "--state-dir", str(state)]) == 0
    return screen


@fault("save", "power cut or SIGKILL at each step between a game's last move and its end on "
       "the screen (its save, the animation, the record's write, the reveal's first frame); "
       "a stop once the save was forgotten dealt a new game, the end never shown",
       sees="the game's end (the reveal) at the next start, once, then the start screen; "
       "stopped before the last move's save: the game at the move before",
       kept="the last move like every other; the finished game as a record, once")
@pytest.mark.slow
def test_a_stop_at_each_step_between_the_last_move_and_its_end_on_the_screen(
        tmp_path, monkeypatch, capsys):
    session, last = _one_move_from_the_end()
    moves = session.public().ply + 1
    k = 0
    while True:
        state = tmp_path / f"stop-{k}"
        stopped = False
        shown: list[tuple[int, str]] = []  # (steps taken by then, the screen presented)
        with display_app() as (app, clock):
            app.table.store = GameStore(state)
            app.begin(Session.load(session.to_record(), BOARD, CHART,
                                   seats=list(session.seats)), peeks=False)
            assert app.display is not None
            with stop_at(monkeypatch, state, k) as steps:

                def presented(areas: Any = None, app: Any = app, present: Any = app.display.present,
                              steps: list[str] = steps, shown: list[Any] = shown) -> None:
                    present(areas)
                    shown.append((len(steps), app.screen.name))

                monkeypatch.setattr(app.display, "present", presented)
                try:
                    app.screen.play_move(last)  # as after a tap: shown, saved
                    assert app.screen.name == "play"  # its animation, then the reveal
                    finish_animation(app, clock)
                    assert app.screen.name == "reveal"
                except Kill:
                    stopped = True

        def records(state: Path = state) -> list[str]:
            return sorted(p.name for p in (state / "records").glob("*.json"))

        saved = "fsync game.json.tmp" in steps  # the last move's save reached the card
        revealed = any(name == "reveal" for _at, name in shown)  # the end was on the screen
        forgotten = "unlink game.json" in steps  # its save gone, once the end was seen
        assert not forgotten or revealed, (k, steps, shown)  # never the save before the end
        first = _start(monkeypatch, state)
        if not saved:  # as a stop during any move's save: the move before
            assert first.screens == ["play"] and first.ply == moves - 1, (k, steps)
            assert records() == [], (k, steps)
        elif not forgotten:  # the end is shown (again, if the stop came just after it)
            assert first.screens == ["reveal"] and first.ply == moves, (k, steps, shown)
            assert len(records()) == 1, (k, steps)
        else:  # the end was on the screen already: the start screen, the game kept
            assert first.screens == ["start"], (k, steps)
            assert len(records()) == 1, (k, steps)
        kept = records()
        again = _start(monkeypatch, state)  # the end was seen: the start screen, no copy
        assert records() == kept, (k, steps)
        assert again.screens == (["play"] if not saved else ["start"]), (k, steps)
        if saved:  # nothing half-written is left once the game is kept
            torn = [*state.glob("game.json*"), *state.glob("records/*.tmp")]
            assert torn == [], (k, steps)
        assert "Traceback" not in capsys.readouterr().err
        if not stopped:
            break
        k += 1
    # The whole way, as it went without a stop: the last move saved first, as any move,
    # then the record written and renamed, then the reveal on the screen, and only then
    # the save forgotten.
    assert steps[:2] == ["fsync game.json.tmp", "replace game.prev.json"], steps
    record = next(i for i, s in enumerate(steps) if s.startswith("replace records/"))
    assert record > steps.index("replace game.json"), steps
    reveal = next(at for at, name in shown if name == "reveal")
    assert record < reveal <= steps.index("unlink game.json"), (steps, shown)
    assert k >= 8, steps  # every step of it was a stop once


def _headless(state: Path, capsys: pytest.CaptureFixture[str]) -> tuple[list[str], bool]:
    """One start of the headless game on ``state``: its lines, and whether it stopped."""
    from clans_pi import cli

    try:
        assert cli.main(["play", "--headless", "--seats", "random,random,random",
                         "--state-dir", str(state), "--seed", "7"]) == 0
        stopped = False
    except Kill:
        stopped = True
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return out.splitlines(), stopped


def _told(lines: list[str]) -> list[str]:
    """The end as the headless game tells it: each player's clan and score."""
    return [line for line in lines if re.match(r"^[\w ]+: \w+ \d+( winner)?$", line)]


@fault("save", "power cut or SIGKILL at each step between the headless game's last move and "
       "its result (its save, the record's write); a stop once the save was forgotten dealt "
       "a new game, the result never printed",
       sees="the game's result at the next start, once; a new game at the start after",
       kept="every move like any other; the finished game as a record, once")
@pytest.mark.slow
def test_a_stop_at_each_step_between_the_headless_game_s_last_move_and_its_result(
        tmp_path, monkeypatch, capsys):
    session, _last = _one_move_from_the_end()
    k = 0
    while True:
        state = tmp_path / f"stop-{k}"
        GameStore(state).save(session)  # one move from its end (or a few: random movers)
        with stop_at(monkeypatch, state, k) as steps:
            lines, stopped = _headless(state, capsys)
        told = _told(lines)
        records = list((state / "records").glob("*.json"))
        assert told == [] or len(records) == 1, (k, steps, lines)  # told once it is kept
        then, _ = _headless(state, capsys)  # the next start
        if not told:  # the end is told now, of the game that was stopped: no new game
            assert _told(then) and not any(line.startswith("new game:") for line in then), (
                k, steps, lines, then)
            assert len(list((state / "records").glob("*.json"))) == 1, (k, steps)
        elif not any(line.startswith("new game:") for line in then):
            # stopped in the instant after the end was told, before its save was forgotten:
            # told again, kept once
            assert _told(then) == told, (k, steps, then)
            assert len(list((state / "records").glob("*.json"))) == 1, (k, steps)
        after, _ = _headless(state, capsys)  # the end was told: a new game
        assert after[0].startswith("new game:"), (k, steps, then, after)
        assert not [*state.glob("game.json*"), *state.glob("records/*.tmp")], (k, steps)
        if not stopped:
            break
        k += 1
    # The whole way, as it went without a stop: the record written before the end was
    # told (its path is told with it), the save forgotten after.
    assert told and lines[-1].startswith("record: "), lines
    assert steps[-4:] == ["unlink game.prev.json", "unlink game.json.tmp", "unlink game.json",
                          "fsync ."], steps
    assert k >= 8, steps


@fault("save", "power cut or SIGKILL at each step of the start that shows a finished game's "
       "end (its record's write, the reveal); a stop once the save was forgotten lost the "
       "end for good",
       sees="the game's end (the reveal) at the start after, once; then the start screen",
       kept="the finished game as a record, once")
@pytest.mark.slow
def test_a_stop_while_the_next_start_shows_the_end_shows_it_at_the_start_after(
        tmp_path, monkeypatch, capsys):
    """The start that shows a finished game's end (its record written there, the reveal,
    its save forgotten) stopped at each of its steps: the end is shown at the start after,
    unless it was on the screen already and its save gone; kept once all the same."""
    done = finished_session(3)
    k = 0
    while True:
        state = tmp_path / f"stop-{k}"
        GameStore(state).save(done)  # stopped after the last move's save, before its record
        frames: list[int] = []  # the frames on the screen, as steps taken by then
        with stop_at(monkeypatch, state, k) as steps:
            present = Display.present

            def presented(display: Display, areas: Any = None, present: Any = present,
                          steps: list[str] = steps, frames: list[int] = frames) -> None:
                present(display, areas)
                frames.append(len(steps))

            monkeypatch.setattr(Display, "present", presented)
            try:
                _start(monkeypatch, state)  # its first frame: the reveal
                stopped = False
            except Kill:
                stopped = True
            monkeypatch.setattr(Display, "present", present)
        forgotten = "unlink game.json" in steps
        assert not forgotten or frames, (k, steps)  # never the save before the end was seen
        then = _start(monkeypatch, state)
        assert then.screens == (["start"] if forgotten else ["reveal"]), (k, steps)
        assert len(list((state / "records").glob("*.json"))) == 1, (k, steps)
        assert _start(monkeypatch, state).screens == ["start"], (k, steps)
        assert "Traceback" not in capsys.readouterr().err
        if not stopped:
            break
        k += 1
    assert steps[-4:] == ["unlink game.prev.json", "unlink game.json.tmp", "unlink game.json",
                          "fsync ."], steps
    assert k >= 5, steps
