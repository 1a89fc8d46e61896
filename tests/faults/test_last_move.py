"""The last move of a game is saved like every other: a stop at any step between it and its
record (during its save, during the animation before the reveal, while the record is
written, while the save is forgotten) loses nothing, the next start shows the game's end,
and the finished game is kept as a record exactly once."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from clans_pi.rules.moves import Move
from clans_pi.saving.store import GameStore
from clans_pi.session import Session
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


@contextmanager
def stop_at(monkeypatch: pytest.MonkeyPatch, root: Path, k: int) -> Iterator[list[str]]:
    """The process stops (a power cut, SIGKILL) just before its ``k``-th step on the disk
    under ``root`` (0-based: an fsync, a rename, an unlink); a file being fsynced then
    keeps only half of what was written. Yields the steps taken, as "call path"."""
    steps: list[str] = []
    under = str(root.resolve())

    def step(call: str, path: Any) -> None:
        name = str(path)
        if not name.startswith(under):
            return
        if len(steps) == k:
            raise Kill
        steps.append(f"{call} {os.path.relpath(name, under)}")

    real_fsync, real_replace, real_unlink = os.fsync, os.replace, os.unlink

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        if len(steps) == k and os.path.isfile(path) and path.startswith(under):
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


@fault("save", "power cut or SIGKILL at each step between a game's last move and its record "
       "(its save, the animation, the record's write and rename, forgetting the save)",
       sees="the game's end (the reveal) once the last move's save was written; before: the "
       "game at the move before, as after any move",
       kept="the last move like every other; the finished game as a record, exactly once")
@pytest.mark.slow
def test_a_stop_at_each_step_between_the_last_move_and_its_record(tmp_path, monkeypatch,
                                                                   capsys):
    session, last = _one_move_from_the_end()
    moves = session.public().ply + 1
    k = 0
    while True:
        state = tmp_path / f"stop-{k}"
        stopped = False
        with display_app() as (app, clock):
            app.table.store = GameStore(state)
            app.begin(Session.load(session.to_record(), BOARD, CHART,
                                   seats=list(session.seats)), peeks=False)
            with stop_at(monkeypatch, state, k) as steps:
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
        forgotten = "unlink game.json" in steps  # kept as a record, its save gone
        first = _start(monkeypatch, state)
        if not saved:  # as a stop during any move's save: the move before
            assert first.screens == ["play"] and first.ply == moves - 1, (k, steps)
            assert records() == [], (k, steps)
        elif not forgotten:  # the end is shown, the record kept
            assert first.screens == ["reveal"] and first.ply == moves, (k, steps)
            assert len(records()) == 1, (k, steps)
        else:  # the end was on the screen already: the start screen, the game kept
            assert first.screens == ["start"], (k, steps)
            assert len(records()) == 1, (k, steps)
        kept = records()
        again = _start(monkeypatch, state)  # the end was seen: the start screen, no copy
        assert records() == kept, (k, steps)
        assert again.screens == (["play"] if not saved else ["start"]), (k, steps)
        if saved:  # nothing half-written is left once the game is kept
            torn = [*state.glob("game.json.tmp"), *state.glob("records/*.tmp")]
            assert torn == [], (k, steps)
        assert "Traceback" not in capsys.readouterr().err
        if not stopped:
            break
        k += 1
    # The whole way, as it went without a stop: the last move saved first, as any move,
    # then the record written and renamed, then the save forgotten.
    assert steps[:2] == ["fsync game.json.tmp", "replace game.prev.json"], steps
    record = next(i for i, s in enumerate(steps) if s.startswith("replace records/"))
    assert record > steps.index("replace game.json"), steps
    assert k >= 8, steps  # every step of it was a stop once
