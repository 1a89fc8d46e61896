"""GameReplay, the move-by-move replay of a finished game: every position it shows is the
engine's own after that many moves, however it got there; its epoch stops are where the
chart's epochs begin (R16); its mover is the seat whose turn it was (R7)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clans_pi.history.replay import GameReplay
from clans_pi.rules.record import replay
from tests.ui_helpers import BOARD, CHART, finished_session

GAMES = ((2, 3), (3, 5), (4, 7))  # (players, seed)


def record_of(n: int, seed: int) -> dict:
    """A finished game's record with its table (seats in table order), as the store keeps
    it."""
    session = finished_session(n, seed)
    data = session.to_record()
    data["table"] = {"ended": "2026-11-20T19:30:00+01:00",
                     "seats": [{"name": s.name, "avatar": s.avatar, "kind": s.kind}
                               for s in session.seats]}
    return data


def first_moves(data: dict, k: int) -> dict:
    """The same record cut after its first ``k`` moves."""
    return {**data, "moves": data["moves"][:k]}


def expected_epoch(chips_taken: int) -> int:
    """The epoch of the next chip (R15, R16) counted on the chart by hand; the last epoch
    once every chip is taken."""
    counts = list(itertools.accumulate(e.chips for e in CHART.epochs))
    nxt = min(chips_taken + 1, counts[-1])
    return next(k + 1 for k, c in enumerate(counts) if nxt <= c)


def same_position(a, b) -> None:
    assert a.ply == b.ply
    assert a.huts == b.huts
    assert a.villages == b.villages
    assert a.clan_points == b.clan_points
    assert a.chips == b.chips
    assert a.chips_taken == b.chips_taken
    assert a.epoch == b.epoch
    assert a.moves == b.moves


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}p")
def game(request):
    data = record_of(*request.param)
    return data, GameReplay(data, "x.json", BOARD, CHART)


def test_it_starts_at_the_deal_and_knows_the_whole_game(game):
    data, rp = game
    rp.go(0)
    assert rp.ply == 0 and rp.total == len(data["moves"]) and not rp.at_end
    assert rp.view().moves == () and rp.view().chips_taken == 0
    assert rp.mover() is None
    assert [s.name for s in rp.seats] == [p.name for p in rp.game.players]
    assert rp.final.is_over
    final = rp.final.public()
    assert tuple(rp.final.seats[rp.final.seat_of(p)].name for p in final.winners) == (
        rp.game.winners)


def test_go_clamps_to_the_game(game):
    _data, rp = game
    assert rp.go(-5).ply == 0 and rp.ply == 0
    assert rp.step(-1).ply == 0
    assert rp.go(rp.total + 10).ply == rp.total and rp.at_end
    assert rp.step(1).ply == rp.total
    assert rp.view().end == rp.game.end


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_any_jump_shows_the_engines_position_after_that_many_moves(data):
    n, seed = data.draw(st.sampled_from(GAMES))
    record = record_of(n, seed)
    rp = GameReplay(record, "x.json", BOARD, CHART)
    for k in data.draw(st.lists(st.integers(-3, rp.total + 3), max_size=8)):
        rp.go(k)
        want = replay(first_moves(record, max(0, min(rp.total, k))), BOARD, CHART)
        same_position(rp.view(), want.observation(None))


def test_the_mover_is_the_seat_whose_turn_it_was_R7(game):
    data, rp = game
    names = [p.name for p in rp.game.players]
    for k in range(1, rp.total + 1):
        rp.go(k)
        before = replay(first_moves(data, k - 1), BOARD, CHART)
        assert rp.mover() == names.index(before.players[before.current_player])


def test_the_mover_follows_the_table_when_turns_start_elsewhere_R7():
    """A table that starts with the second player in turn order (still a rotation of it,
    R7): the mover is counted in the table's order, not in turn order."""
    data = record_of(3, 5)
    players = data["players"]  # turn order, the first player first
    table = players[1:] + players[:1]
    data["table"]["seats"] = [{"name": n, "avatar": "", "kind": "human"} for n in table]
    rp = GameReplay(data, "x.json", BOARD, CHART)
    assert [p.name for p in rp.game.players] == table
    rp.go(1)
    assert table[rp.mover()] == players[0]
    rp.go(2)
    assert table[rp.mover()] == players[1]


def test_epoch_starts_are_where_the_charts_epochs_begin_R16(game):
    _data, rp = game
    epochs = []
    for k in range(rp.total + 1):
        obs = rp.go(k)
        assert obs.epoch == expected_epoch(obs.chips_taken)
        epochs.append(obs.epoch)
    want = [0] + [k for k in range(1, rp.total + 1) if epochs[k] != epochs[k - 1]]
    assert rp.epoch_starts == want
    assert epochs[-1] > 1  # a whole game goes past its first epoch


def test_epoch_steps_stop_at_every_epoch_start_and_at_the_ends(game):
    _data, rp = game
    rp.go(0)
    forward = []
    while not rp.at_end:
        forward.append(rp.next_epoch().ply)
    assert forward == sorted(set(rp.epoch_starts[1:]) | {rp.total})
    assert rp.next_epoch().ply == rp.total
    back = []
    while rp.ply > 0:
        back.append(rp.previous_epoch().ply)
    assert back == sorted(set(rp.epoch_starts) - {rp.total}, reverse=True)
    assert rp.previous_epoch().ply == 0


def test_back_an_epoch_from_inside_one_goes_to_its_start(game):
    _data, rp = game
    start = rp.epoch_starts[1]
    rp.go(start + 1)
    assert rp.previous_epoch().ply == start
    assert rp.previous_epoch().ply == 0


def test_the_guesses_kept_in_the_record_are_counted_per_player():
    data = record_of(3, 5)
    clans = data["clans"]
    other = next(c for c in ("red", "blue", "green", "yellow", "black") if c != clans[0])
    data["guesses"] = [{"by": 1, "of": 0, "clan": clans[0], "weight": 0.9},
                       {"by": 2, "of": 0, "clan": other, "weight": 0.5},
                       {"by": 0, "of": 2, "clan": clans[2], "weight": 0.7}]
    rp = GameReplay(data, "x.json", BOARD, CHART)
    by_name = {p.name: p for p in rp.game.players}
    first, third = by_name[data["players"][0]], by_name[data["players"][2]]
    assert (first.read_right, first.guessed) == (1, 2)
    assert (third.read_right, third.guessed) == (1, 1)
    assert by_name[data["players"][1]].guessed == 0
