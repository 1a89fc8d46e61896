"""The table (clans_pi/table): the game's flow without pygame, as the headless game, the
touchscreen and later phones drive it. No display here, a fake clock, real saves."""

from __future__ import annotations

import errno
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from clans_pi.rules.constants import CLANS
from clans_pi.rules.events import Event, GameOver
from clans_pi.rules.moves import Move
from clans_pi.saving.store import GameStore
from clans_pi.session import Seat, Session
from clans_pi.table import Table
from tests.rules_helpers import BOARD, CHART


class Stage:
    """Where computer moves go: played through the table at once (as headless does)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.said: list[str] = []

    def ready_for_computer(self) -> bool:
        return True

    def computer_move(self, move: Move) -> None:
        self.table.play(move.src, move.dst, move.order)

    def say(self, text: str) -> None:
        self.said.append(text)


class Clock:
    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        self.now += 1000
        return self.now


def table_for(tmp_path: Path | None, *, seed: int = 3) -> tuple[Table, Stage]:
    store = GameStore(tmp_path) if tmp_path is not None else None
    table = Table(BOARD, CHART, rng=random.Random(seed), store=store, pause_ms=0)
    stage = Stage(table)
    table.computers.stage = lambda: stage
    return table, stage


def computers(n: int) -> list[Seat]:
    return [Seat(f"Computer {k + 1}", "", "easy") for k in range(n)]


def test_the_table_and_the_headless_game_import_no_pygame() -> None:
    code = ("import sys, clans_pi.table, clans_pi.table.headless; "
            "assert 'pygame' not in sys.modules, 'pygame imported'")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr


def test_a_whole_game_of_computer_seats_saved_after_every_move(tmp_path: Path) -> None:
    table, _stage = table_for(tmp_path)
    heard: list[list[Event]] = []
    table.listen(lambda events: heard.append(list(events)))
    session = table.new_game(computers(3))
    assert GameStore(tmp_path).load(BOARD, CHART)[0] is not None  # saved at the deal
    clock = Clock()
    saved_plies = []
    while not session.is_over:
        ply = session.public().ply
        table.poll_computers(clock())
        assert session.public().ply == ply + 1  # no pause, random movers: one move a poll
        if not session.is_over:
            loaded, problems = GameStore(tmp_path).load(BOARD, CHART)
            assert problems == [] and loaded is not None
            assert loaded.public() == session.public()  # the move was saved at once
            saved_plies.append(loaded.public().ply)
    assert saved_plies == list(range(1, session.public().ply))
    assert len(heard) == session.public().ply  # every move heard once
    assert isinstance(heard[-1][-1], GameOver)
    record = table.finish()
    assert record is not None and record.exists()
    # The save stays until the end has been shown: a stop before shows it at the next start.
    ended = GameStore(tmp_path).load(BOARD, CHART)[0]
    assert ended is not None and ended.public() == session.public()
    assert list(record.parent.iterdir()) == [record]  # kept once
    table.end_shown()
    assert GameStore(tmp_path).load(BOARD, CHART)[0] is None  # the save gave way to it
    assert table.take_notices() == []
    assert table.status() == f"Game over after {session.public().ply} moves"
    table.shutdown()
    assert table.computers.threads == []


def _person_then_computer(tmp_path: Path) -> tuple[Table, Session, Stage]:
    for seed in range(50):
        table, stage = table_for(tmp_path, seed=seed)
        session = table.new_game([Seat("Ann"), Seat("Computer", "", "easy")])
        if session.seats[session.current_seat].is_human:
            return table, session, stage
    raise AssertionError("no deal where the person moves first")


def test_undo_takes_back_the_persons_move_and_the_computers_reply(tmp_path: Path) -> None:
    table, session, _stage = _person_then_computer(tmp_path)
    m = session.public().legal_moves[0]
    order = session.founds(m.src, m.dst)
    table.play(m.src, m.dst, order or None)
    assert session.undo_moves == 1
    table.poll_computers(1000)  # the computer replies
    assert session.public().ply == 2 and session.undo_moves == 2
    taken = table.undo()
    assert (taken.src, taken.dst) == (m.src, m.dst)
    assert session.public().ply == 0 and not session.can_undo
    assert session.seats[session.current_seat].is_human  # the person moves again
    loaded = GameStore(tmp_path).load(BOARD, CHART)[0]
    assert loaded is not None and loaded.public().ply == 0  # the undo was saved
    assert table.computers.turn is None


def test_a_computer_does_not_move_for_a_person(tmp_path: Path) -> None:
    table, session, _stage = _person_then_computer(tmp_path)
    for now in range(0, 5000, 1000):
        assert not table.poll_computers(now)
    assert session.public().ply == 0


def test_private_views_show_each_seat_its_own_clan_only() -> None:
    table, _stage = table_for(None)
    session = table.new_game(computers(4))
    record = session.to_record()
    for seat in range(4):
        view = table.private(seat)
        assert view.own_clan == record["clans"][session.player_of(seat)]
        assert view.revealed_clans is None
    assert table.public().own_clan is None and table.public().revealed_clans is None


class Notifier:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def status(self, text: str) -> None:
        self.lines.append(text)


def _told(clans: Sequence[str], moves: Sequence[Move], deal: dict) -> list[object]:
    """Everything a table lets out while ``moves`` are played on the deal ``deal`` with
    ``clans`` as the players' secret clans: events heard, notices, status lines."""
    data = {**deal, "clans": list(clans), "moves": []}
    session = Session.load(data, BOARD, CHART, seats=[Seat(p) for p in data["players"]])
    notifier = Notifier()
    table = Table(BOARD, CHART, rng=random.Random(1), notifier=notifier)
    out: list[object] = []
    table.listen(lambda events: out.append(("heard", list(events))))
    table.begin(session)
    for m in moves:
        table.play(m.src, m.dst, m.order)
        out.extend(("notice", n) for n in table.take_notices())
    out.append(("status", notifier.lines))
    return out


def test_listeners_notices_and_status_carry_no_clan_before_the_end() -> None:
    """R22: the same deal and moves with other secret clans: all the table lets out is the
    same until the end (whose GameOver reveals the clans)."""
    table, _stage = table_for(None, seed=8)
    session = table.new_game(computers(3))
    clock = Clock()
    while not session.is_over:
        table.poll_computers(clock())
    record = session.to_record()
    moves = [Move(m["from"], m["to"], tuple(m["order"]) if "order" in m else None)
             for m in record["moves"]]
    deal = {k: v for k, v in record.items() if k not in ("clans", "moves")}
    others = [c for c in CLANS if c not in record["clans"]]
    variants = [record["clans"], [*record["clans"][1:], record["clans"][0]],
                [others[0], *record["clans"][1:]]]
    told = [_told(clans, moves, {"format": record["format"], **deal}) for clans in variants]
    # All but the last move's GameOver (the end reveals the clans), status lines included.
    before_end = [[*t[:-2], t[-2][1][:-1], t[-1]] for t in told]
    assert all(isinstance(t[-2][1][-1], GameOver) for t in told)
    assert before_end[0] == before_end[1] == before_end[2]
    assert told[0][-2] != told[1][-2]  # the end reveals them (the test can fail)


def test_a_failing_card_is_said_once_and_play_goes_on(tmp_path: Path, monkeypatch) -> None:
    table, _stage = table_for(tmp_path)
    session = table.new_game(computers(3))
    assert table.saving

    def refuse(*_args: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(GameStore, "save", refuse)
    for now in range(1000, 6000, 1000):
        table.poll_computers(now)
    notices = table.take_notices()
    assert len(notices) == 1 and "read-only" in notices[0]
    assert not table.saving and session.public().ply == 5
    monkeypatch.undo()
    table.poll_computers(7000)
    assert table.saving and table.take_notices() == []
    assert GameStore(tmp_path).load(BOARD, CHART)[0].public().ply == 6


class FirstMove:
    """A bot that takes the first legal move it sees, and notes whose view it got."""

    def __init__(self, views: list[object]) -> None:
        self.views = views

    def choose(self, obs, *, cancel=None) -> Move:
        self.views.append((obs.viewer, obs.own_clan))
        m = obs.legal_moves[0]
        return Move(m.src, m.dst)


def test_a_hint_is_searched_from_the_persons_own_view_only(tmp_path: Path) -> None:
    table, session, _stage = _person_then_computer(tmp_path)
    views: list[object] = []
    table.bots = lambda seat, level: FirstMove(views)
    table.hints = True
    person = session.current_seat
    table.hint_for(1 - person)  # not their turn: nothing
    assert table.computers.hint is None
    table.hint_for(person)
    hint = table.computers.hint
    assert hint is not None and hint.worker.wait(10)
    state, move = table.computers.hint_state()
    assert state == "ready" and move is not None
    assert (move.src, move.dst) == (session.public().legal_moves[0].src,
                                    session.public().legal_moves[0].dst)
    mine = table.private(person)
    assert views == [(mine.viewer, mine.own_clan)]  # the person's view, no other
    table.play(move.src, move.dst, session.founds(move.src, move.dst) or None)
    assert table.computers.hint is None  # gone with the move
    table.shutdown()
