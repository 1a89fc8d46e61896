"""The Session: seats in table order vs turn order (R7), public and per-seat views (R22),
refusal reasons (R8, R9, R13), village slots (R11, R18), one-step undo, loading games."""

from __future__ import annotations

import random

import pytest

from clans_pi.rules.constants import CLANS
from clans_pi.rules.errors import ClansError, SetupError
from clans_pi.rules.state import GameState
from clans_pi.session import Seat, Session
from tests.ui_helpers import BOARD, CHART, NAMES, finished_session, random_session


def test_r7_turn_order_is_a_rotation_of_table_order():
    for seed in range(12):
        seats = [Seat(n) for n in NAMES]
        s = Session.new(seats, BOARD, CHART, random.Random(seed))
        assert s.seats == tuple(seats)
        for seat in range(4):
            assert s._state.players[s.player_of(seat)] == seats[seat].name
            assert s.seat_of(s.player_of(seat)) == seat
        # the first player is random (R7): seat 0 is not always first
    firsts = {Session.new([Seat(n) for n in NAMES], BOARD, CHART, random.Random(k)).first_seat
              for k in range(30)}
    assert firsts == {0, 1, 2, 3}


def test_r6_player_counts_and_names():
    with pytest.raises(SetupError, match="2 to 4 players"):
        Session.new([Seat("A")], BOARD, CHART, random.Random(1))
    with pytest.raises(ClansError):
        Session.new([Seat("A"), Seat("A")], BOARD, CHART, random.Random(1))


def test_r22_public_view_hides_clans_private_view_shows_one():
    s = random_session(3, moves=10)
    pub = s.public()
    assert pub.own_clan is None and pub.revealed_clans is None and pub.scores is None
    for seat in range(3):
        view = s.private(seat)
        assert view.own_clan == s._state.clan_of(s.player_of(seat))
        assert view.revealed_clans is None


def test_r20_public_view_reveals_at_the_end():
    s = finished_session(3)
    assert s.public().revealed_clans == s._state.clans


def test_refusals_r8_r9_r13():
    nbrs = BOARD.neighbors(0)
    huts = {0: {"red": 3, "blue": 2, "green": 2}}
    for k, n in enumerate(nbrs):
        huts[n] = {CLANS[k % 5]: 1}
    state = GameState.from_position(BOARD, CHART, ["A", "B"], ["red", "blue"], huts)
    s = Session(state, [Seat("A"), Seat("B")])
    empty = next(t for t in range(60) if t not in huts)
    assert s.refusal(0) == "7 or more huts cannot move"  # R9
    assert s.refusal(empty) == "that territory is empty"  # R8
    small = nbrs[0]
    assert s.refusal(small) is None
    assert s.refusal(small, 0) is None  # a small group may join a big one (R9)
    assert s.refusal(small, small) == "choose a neighbouring territory"
    far = next(t for t in huts if t != small and t not in BOARD.neighbors(small) and t != 0)
    assert s.refusal(small, far) == "not a neighbouring territory"
    assert s.refusal(small, empty) == "that territory is empty"
    # A lone group with no non-empty neighbour is a village (R10, R13).
    lone = next(t for t in range(60) if t not in huts
                and not any(n in huts for n in BOARD.neighbors(t)))
    huts2 = {**huts, lone: {"black": 2}}
    s2 = Session(GameState.from_position(BOARD, CHART, ["A", "B"], ["red", "blue"], huts2),
                 [Seat("A"), Seat("B")])
    assert s2.refusal(lone) == "a village cannot move"


def test_r11_r18_slot_previews_follow_the_chart():
    s = random_session(2, moves=0)
    first = s.slot_preview(0)
    assert (first.chip, first.epoch, first.bonus) == (1, 1, CHART.epoch(1).bonus)
    assert s.slot_preview(4).epoch == 2  # epoch I has 4 chips (R15)
    assert s.slot_preview(11).epoch == 5
    assert s.slot_preview(12).chip is None  # no 13th chip: not scored (R18)


def test_undo_takes_back_one_move_only_until_the_game_ends():
    s = random_session(3, moves=6)
    assert not s.can_undo  # a loaded or fresh session has nothing it may take back
    before = s.public()
    m = before.legal_moves[0]
    s.play(m.src, m.dst)
    assert s.can_undo
    s.undo()
    assert s.public() == before
    assert not s.can_undo
    with pytest.raises(SetupError):
        s.undo()
    while not s.is_over:
        m = s.public().legal_moves[0]
        s.play(m.src, m.dst, None)
    assert not s.can_undo  # the clans are revealed: no going back


def test_load_saved_game_and_record():
    s = random_session(4, moves=15)
    again = Session.load(s.to_json(), BOARD, CHART)
    assert again.public() == s.public()
    from_record = Session.load(s.to_record(), BOARD, CHART)
    assert from_record.public() == s.public()
    assert [x.name for x in from_record.seats] == list(s._state.players)
    with pytest.raises(ClansError):
        Session.load({"format": "clans-record/1"}, BOARD, CHART)


def test_undo_after_computers_replied_takes_back_the_persons_move_and_their_replies():
    """With computer seats, Undo goes back to before the last person's move (the computers
    would otherwise just answer again); it is gone once another person has moved."""
    from tests.bot_fakes import with_kinds

    base = random_session(4, moves=8)
    person = base.current_seat
    n = base.num_seats
    kinds = tuple("human" if k in (person, (person + 3) % n) else "hard" for k in range(n))
    s = with_kinds(base, kinds)
    before = s.public()

    def move() -> None:
        m = s.public().legal_moves[0]
        s.play(m.src, m.dst)

    move()  # the person
    assert s.undo_moves == 1
    move()  # computer
    move()  # computer
    assert s.can_undo and s.undo_moves == 3
    taken = s.undo()
    assert taken == before.legal_moves[0] and s.public() == before
    assert s.current_seat == person and not s.can_undo
    for _ in range(4):  # the person, two computers, the other person
        move()
    assert s.undo_moves == 1  # only the other person's move now


def test_a_computer_moving_first_gives_nothing_to_undo():
    from tests.bot_fakes import computer_to_move

    s = computer_to_move(3)
    m = s.public().legal_moves[0]
    s.play(m.src, m.dst)
    assert not s.can_undo


def test_r12_r14_village_worth_is_what_the_engine_scores():
    """The order choice shows each slot's worth before the move is played: for every move
    that founds several villages in a range of games, and every order, the figure is what
    the engine then scores (strife R12.2, favourable/neutral/hostile R14, no chip R18)."""
    import itertools

    from clans_pi.rules.events import VillageScored, VillageUnscored
    from clans_pi.rules.record import replay

    checked = 0
    for seed in range(12):
        session = random_session(4, seed=seed, moves=0)
        rng = random.Random(seed)
        while not session.is_over:
            moves = session.public().legal_moves
            for m in moves:
                founds = session.founds(m.src, m.dst)
                if len(founds) < 2:
                    continue
                for order in itertools.permutations(founds):
                    shown = [session.village_worth(m.src, m.dst, t, k)
                             for k, t in enumerate(order)]
                    trial = Session(replay(session.to_record(), BOARD, CHART), session.seats)
                    events = trial.play(m.src, m.dst, order)
                    scored = {e.territory: e.value for e in events
                              if isinstance(e, VillageScored)}
                    scored.update({e.territory: 0 for e in events
                                   if isinstance(e, VillageUnscored)})
                    assert shown == [scored[t] for t in order], (seed, m, order)
                    checked += 1
            move = moves[rng.randrange(len(moves))]
            session.play(move.src, move.dst, None if len(session.founds(move.src, move.dst))
                         < 2 else session.founds(move.src, move.dst))
    assert checked > 20
