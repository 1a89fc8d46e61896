"""The table's computer players (clans_pi/table/players.py): a seat keeps its bot for the
game, so Hard's belief goes on from move to move; with workers, the searches run on a pool
of processes that an undo cancels and the end of the game stops, leaving none behind.
"""

from __future__ import annotations

import random
import time

import pytest

from clans_pi.bots.search_bot import SearchBot
from clans_pi.session import Seat
from clans_pi.table import Table
from clans_pi.table.players import ComputerPlayers
from tests.rules_helpers import BOARD, CHART
from tests.test_bot_parallel import gone, wait_gone
from tests.test_table import Clock, Stage


def test_a_seat_keeps_its_bot_and_the_levels_share_nothing_but_the_seed_rule():
    make = ComputerPlayers(BOARD, CHART, 1.0, seed=5, workers=1)
    hard = make(0, "hard")
    assert make(0, "hard") is hard  # the same bot every turn: its belief goes on
    assert make(1, "hard") is not hard and make(0, "normal") is not hard
    assert isinstance(hard, SearchBot) and hard.pool is None  # one worker: this process
    assert make.pool is None
    make.close()


def test_hards_belief_is_read_from_each_move_once_not_from_the_deal_every_turn(monkeypatch):
    """Today's bot replays only the moves it has not seen (a new bot every turn replayed
    the whole game from the deal, which the tracker's restart counts)."""
    from clans_pi.bots.belief import BeliefTracker

    restarts = []
    original = BeliefTracker._restart
    monkeypatch.setattr(BeliefTracker, "_restart",
                        lambda self, obs: (restarts.append(obs.ply), original(self, obs)))
    table = Table(BOARD, CHART, rng=random.Random(2), pause_ms=0,
                  bots=ComputerPlayers(BOARD, CHART, 0.02, seed=1, workers=1))
    stage = Stage(table)
    table.computers.stage = lambda: stage
    session = table.new_game([Seat("Hard", "", "hard"), Seat("Easy", "", "easy")])
    clock = Clock()
    while session.public().ply < 12:
        table.poll_computers(clock())
        table.computers.wait(30)
    assert restarts == [restarts[0]]  # once, at Hard's first move
    table.shutdown()


@pytest.mark.slow
def test_a_game_on_worker_processes_plays_to_the_end_and_leaves_no_process():
    make = ComputerPlayers(BOARD, CHART, 0.05, seed=3, workers=2)
    table = Table(BOARD, CHART, rng=random.Random(4), pause_ms=0, bots=make)
    stage = Stage(table)
    table.computers.stage = lambda: stage
    session = table.new_game([Seat("Hard", "", "hard"), Seat("Normal", "", "normal")])
    clock = Clock()
    pool = None
    while not session.is_over:
        table.poll_computers(clock())
        table.computers.wait(60)
        pool = pool or make.pool
    assert pool is not None and len(pool.pids) == 2  # both levels searched on it
    assert pool.ready()
    pids = pool.pids
    assert not any(gone(p) for p in pids)
    table.shutdown()  # the program ends
    assert wait_gone(pids), "a search worker outlived the game"
    assert make.pool is None and table.computers.threads == []


def test_an_undo_cancels_the_search_on_the_workers():
    make = ComputerPlayers(BOARD, CHART, 600.0, seed=3, workers=2)  # a search for ever
    table = Table(BOARD, CHART, rng=random.Random(4), pause_ms=0, bots=make)
    stage = Stage(table)
    table.computers.stage = lambda: stage
    table.new_game([Seat("Hard", "", "hard"), Seat("Normal", "", "normal")])
    assert make(0, "hard").pool is not None and make.pool.ready(60)
    table.poll_computers(1000)  # the first computer starts thinking
    worker = table.computers.turn.worker
    time.sleep(0.3)
    assert worker is not None and not worker.done
    table.computers.cancel()  # what undo, a new game and quitting do
    assert worker.wait(30) and worker.cancelled
    table.shutdown()
    assert table.computers.threads == []
