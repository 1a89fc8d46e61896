"""The rules engine against RULES.md: set-up and moves (R1-R11, R13).

Scoring, the end of the game and secrecy (R12, R14-R22) and the events are in
tests/test_rules_scoring.py; the engine API in tests/test_engine_api.py; shared helpers in
tests/rules_helpers.py. Each test name starts with the rule it checks. Never hard-code
territory ids of the shipped board: either find territories programmatically, or build a
small dedicated board with :func:`make_board`, where ids, terrains and neighbours are the
test's own.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from clans_pi.rules import events as ev
from clans_pi.rules.constants import CLANS
from clans_pi.rules.epochs import EpochChart, load_default_chart
from clans_pi.rules.errors import SetupError
from clans_pi.rules.moves import Move
from clans_pi.rules.setup import deal
from clans_pi.rules.state import GameState
from tests.rules_helpers import (
    BOARD,
    CHART,
    PLAYERS,
    SPARE,
    SPARE_EDGE,
    STAR,
    illegal,
    mixed,
    play_randomly,
    position,
    random_game,
)

# Every move and playout here is checked against the compiled core too.
pytestmark = pytest.mark.usefixtures("compiled_twin")

# ------------------------------------------------------------------------ R1, R2, R3


def test_r1_deal_puts_one_hut_on_each_of_the_60_territories():
    state = random_game(0)
    assert len(state.board.territories) == 60
    assert [state.hut_total(t) for t in range(60)] == [1] * 60
    assert len(state.board.regions) == 12
    assert all(len(r) == 5 for r in state.board.regions)


def test_r2_moves_only_between_neighbours():
    for seed in range(5):
        state = random_game(seed)
        for move, _ in play_randomly(state, seed):
            assert move.dst in state.board.neighbors(move.src)
    state = random_game(1)
    for m in state.legal_moves():
        assert m.dst in BOARD.neighbors(m.src)
    assert {(m.src, m.dst) for m in state.legal_moves()} == set(zip(*BOARD.edges, strict=True))
    src = 0
    far = next(t for t in range(60) if t != src and t not in BOARD.neighbors(src))
    illegal(state, Move(src, far), f"territory {far} is not a neighbour of {src}")


def test_r2_only_the_boards_neighbour_relation_counts():
    # 0-1 and 1-2 are neighbours; 0 and 2 are not, whatever their ids suggest.
    state = position([(0, 1), (1, 2), SPARE_EDGE], {0: {"red": 1}, 1: {"blue": 1}, 2: {"green": 1}})
    assert state.legal_targets(0) == (1,)
    assert state.legal_targets(1) == (0, 2)
    illegal(state, Move(0, 2), "territory 2 is not a neighbour of 0")


def test_r3_deal_gives_five_clans_twelve_huts_each():
    for seed in range(20):
        state = random_game(seed)
        per_clan = Counter()
        for t in range(60):
            per_clan.update(state.huts(t))
        assert per_clan == {clan: 12 for clan in CLANS}
    assert CLANS == ("red", "blue", "green", "yellow", "black")


def test_r3_huts_are_kept_except_strife_and_hostile_villages():
    for seed in range(10):
        state = random_game(seed)
        for _ in play_randomly(state, seed):
            on_board = sum(state.hut_total(t) for t in range(60))
            assert on_board + state.huts_removed() == 60
            for c in range(5):
                assert sum(state.hut_counts(t)[c] for t in range(60)) <= 12


# -------------------------------------------------------------------------- R4, R15


def test_r4_r15_default_chart_has_twelve_chips_4_3_2_2_1():
    chart = load_default_chart()
    table = [(e.number, e.chips, e.bonus, set(e.favourable), set(e.hostile)) for e in chart.epochs]
    assert table == [
        (1, 4, 1, {"forest"}, {"mountain"}),
        (2, 3, 2, {"mountain"}, {"grassland"}),
        (3, 2, 3, {"steppe"}, {"forest"}),
        (4, 2, 4, {"grassland"}, {"steppe"}),
        (5, 1, 5, {"forest", "mountain", "steppe", "grassland"}, set()),
    ]
    assert chart.total_chips == 12
    assert chart.chip_epoch[1:] == (1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5)


def test_r15_each_terrain_favourable_once_and_hostile_once_in_epochs_one_to_four():
    chart = load_default_chart()
    favourable = Counter(t for e in chart.epochs[:4] for t in e.favourable)
    hostile = Counter(t for e in chart.epochs[:4] for t in e.hostile)
    terrains = {"forest", "mountain", "steppe", "grassland"}
    assert favourable == dict.fromkeys(terrains, 1)
    assert hostile == dict.fromkeys(terrains, 1)


def test_r4_a_chart_must_have_twelve_chips():
    data = CHART.to_dict()
    data["epochs"][0]["chips"] = 3
    with pytest.raises(ValueError, match="11 chips in all; the game has 12"):
        EpochChart.from_dict(data)


# ------------------------------------------------------------------------------- R5


def test_r5_each_region_gets_one_hut_of_each_clan():
    seen: dict[int, set[str]] = {t: set() for t in range(60)}
    for seed in range(150):
        state = random_game(seed)
        for region in BOARD.regions:
            clans = [clan for t in region for clan in state.huts(t)]
            assert sorted(clans) == sorted(CLANS)
        for t in range(60):
            seen[t].update(state.huts(t))
    # placed at random: over many deals every clan lands on every territory
    assert all(s == set(CLANS) for s in seen.values())


def test_r5_explicit_deal_with_two_huts_of_a_clan_in_a_region_is_rejected():
    state = random_game(3)
    huts = {t: next(iter(state.huts(t))) for t in range(60)}
    GameState(BOARD, CHART, PLAYERS, ("red", "blue"), huts)  # the deal itself is fine
    region = BOARD.regions[0]
    a, b = region[0], region[1]
    huts[a] = huts[b]
    with pytest.raises(SetupError, match=rf"two {huts[b]} huts \(territories"):
        GameState(BOARD, CHART, PLAYERS, ("red", "blue"), huts)


# ------------------------------------------------------------------------------- R6


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r6_two_to_four_players_each_get_a_different_clan(n):
    names = tuple("NESW"[:n])
    dealt_to_first: set[str] = set()
    for seed in range(60):
        state = deal(BOARD, names, random.Random(seed))
        assert state.num_players == n
        assert len(set(state.clans)) == n
        assert set(state.clans) <= set(CLANS)
        dealt_to_first.add(state.clan_of(0))
    assert dealt_to_first == set(CLANS)  # dealt at random


@pytest.mark.parametrize("names", [("Solo",), ("A", "B", "C", "D", "E")])
def test_r6_one_or_five_players_are_rejected(names):
    message = f"2 to 4 players play (R6), not {len(names)}"
    with pytest.raises(SetupError, match=message.replace("(", r"\(").replace(")", r"\)")):
        deal(BOARD, names, random.Random(0))
    with pytest.raises(SetupError, match=r"2 to 4 players play \(R6\)"):
        GameState.from_position(
            BOARD, CHART, names, CLANS[: len(names)], {0: {"red": 1}, 1: {"red": 1}}
        )


def test_r6_duplicate_clans_are_rejected():
    with pytest.raises(SetupError, match=r"each player needs a different clan \(R6\)"):
        position([(0, 1)], {0: {"red": 1}, 1: {"red": 1}}, clans=("red", "red"))


def test_r6_unknown_clan_is_rejected():
    with pytest.raises(SetupError, match="player 1 has unknown clan 'purple'"):
        position([(0, 1)], {0: {"red": 1}, 1: {"red": 1}}, clans=("red", "purple"))
    with pytest.raises(SetupError, match=r"one clan per player \(2\), not 1"):
        position([(0, 1)], {0: {"red": 1}, 1: {"red": 1}}, clans=("red",))


def test_r6_clans_not_dealt_stay_on_the_board():
    state = random_game(4, players=("A", "B"))
    assert len(set(state.clans)) == 2
    for clan in CLANS:
        assert sum(state.huts(t).get(clan, 0) for t in range(60)) == 12


# ------------------------------------------------------------------------------- R7


def test_r7_first_player_random_seat_order_kept():
    seats = ["N", "E", "S", "W"]
    rotations = [tuple(seats[i:] + seats[:i]) for i in range(4)]
    firsts = Counter()
    for seed in range(100):
        state = deal(BOARD, seats, random.Random(seed))
        assert state.players in rotations
        firsts[state.players[0]] += 1
    assert set(firsts) == set(seats)
    assert deal(BOARD, seats, random.Random(5), random_first=False).players == tuple(seats)


def test_r7_turns_follow_the_seat_order():
    state = random_game(2)
    for i, (_move, events) in enumerate(play_randomly(state, 2)):
        moved = events[0]
        assert isinstance(moved, ev.Moved)
        assert moved.player == i % 3


# ------------------------------------------------------------------------------- R8


def test_r8_move_all_huts_into_non_empty_neighbour():
    state = position(
        [(0, 1), (1, 2), (2, 3), SPARE_EDGE],
        {0: {"red": 2, "blue": 1}, 1: {"blue": 2, "green": 1}, 2: {"yellow": 1}, 3: {"red": 1}},
    )
    events = state.play(Move(0, 1))
    assert events == [ev.Moved(0, 0, 1, 3, 6)]
    assert state.huts(0) == {}
    assert state.huts(1) == {"red": 2, "blue": 3, "green": 1}
    assert state.current_player == 1


def test_r8_move_on_the_shipped_board():
    state = random_game(7)
    move = state.legal_moves()[0]
    clans = {**state.huts(move.src)}
    for clan, n in state.huts(move.dst).items():
        clans[clan] = clans.get(clan, 0) + n
    state.play(move)
    assert state.hut_total(move.src) == 0
    assert state.huts(move.dst) == clans


def test_r8_emptied_territory_stays_empty_forever():
    for seed in range(8):
        state = random_game(seed)
        emptied: set[int] = set()
        for move, _ in play_randomly(state, seed):
            emptied.add(move.src)
            for t in emptied:
                assert state.hut_total(t) == 0
            for m in state.legal_moves():
                assert m.src not in emptied and m.dst not in emptied


def test_r8_no_move_into_an_empty_territory():
    state = random_game(11)
    src = next(t for t in range(60) if len(BOARD.neighbors(t)) >= 3)
    dst, other = BOARD.neighbors(src)[:2]
    state.play(Move(src, dst))
    illegal(state, Move(other, src), f"territory {src} is empty; huts only move into non-empty")


def test_r8_no_move_from_an_empty_territory():
    state = random_game(12)
    move = state.legal_moves()[0]
    state.play(move)
    target = next(t for t in BOARD.neighbors(move.src) if t != move.dst)
    illegal(state, Move(move.src, target), f"territory {move.src} is empty")


def test_r8_no_move_from_a_village():
    state = position([(0, 1), (1, 2), SPARE_EDGE], {0: {"red": 1}, 1: {"blue": 2}, **SPARE})
    assert state.legal_targets(2) == ()
    state.play(Move(0, 1))
    assert state.is_village(1)
    illegal(state, Move(1, 0), "territory 1 is a village; its huts cannot move (R13)")
    illegal(state, Move(1, 2), "territory 1 is a village")


def test_r8_no_such_territory():
    state = random_game(0)
    illegal(state, Move(0, 60), "there is no territory 60")
    illegal(state, Move(-1, 0), "there is no territory -1")
    illegal(state, Move(0, 0), "territory 0 is not a neighbour of 0")  # no passing in place


def test_r8_there_is_always_a_move_until_the_end():
    for seed in range(10):
        state = random_game(seed)
        for _ in play_randomly(state, seed):
            assert bool(state.legal_moves()) != state.is_over
        assert state.legal_moves() == []


# ------------------------------------------------------------------------------- R9

TRIANGLE = [(0, 1), (1, 2), (0, 2), SPARE_EDGE]


def triangle(a: int, b: int, c: int = 1) -> GameState:
    """Territories 0, 1, 2 all neighbours, holding ``a``, ``b`` and ``c`` huts."""
    return position(TRIANGLE, {0: mixed(a), 1: mixed(b, 2), 2: {"black": c}, **SPARE})


@pytest.mark.parametrize(
    ("a", "b", "a_into_b", "b_into_a"),
    [
        (7, 6, False, True),  # 7 into 6 illegal, 6 into 7 legal
        (7, 8, True, False),  # 7 into 8 legal, 8 into 7 illegal
        (7, 7, True, True),  # equal big groups: either way
        (12, 12, True, True),
        (6, 6, True, True),
        (11, 8, False, True),
        (1, 12, True, False),
    ],
)
def test_r9_big_groups(a, b, a_into_b, b_into_a):
    state = triangle(a, b)
    assert ((1 in state.legal_targets(0)), (0 in state.legal_targets(1))) == (a_into_b, b_into_a)
    for src, dst, ok in ((0, 1, a_into_b), (1, 0, b_into_a)):
        n, m = state.hut_total(src), state.hut_total(dst)
        if ok:
            trial = state.copy()
            trial.play(Move(src, dst))
            assert trial.hut_total(dst) == n + m
        else:
            illegal(
                state,
                Move(src, dst),
                f"territory {src} holds {n} huts; a group of 7 or more only moves into a "
                f"neighbouring group at least as large (territory {dst} holds {m}) (R9)",
            )


def test_r9_seven_or_more_cannot_move_into_a_small_group():
    state = triangle(7, 8, 6)
    assert state.legal_targets(0) == (1,)
    assert state.legal_targets(1) == ()
    assert state.legal_targets(2) == (0, 1)  # fewer than 7 may join any group
    illegal(state, Move(0, 2), "territory 0 holds 7 huts")


def test_r9_is_a_permission_not_a_forced_move():
    state = triangle(7, 7, 1)
    assert set(state.legal_moves()) == {
        Move(0, 1),
        Move(1, 0),
        Move(2, 0),
        Move(2, 1),
        Move(*SPARE_EDGE),
        Move(SPARE_EDGE[1], SPARE_EDGE[0]),
    }
    state.play(Move(*SPARE_EDGE))  # another move entirely is fine
    state.play(Move(2, 0))
    assert state.hut_total(0) == 8


def test_r9_on_the_shipped_board():
    for seed in range(10):
        state = random_game(seed)
        for _ in play_randomly(state, seed):
            for m in state.legal_moves():
                n, d = state.hut_total(m.src), state.hut_total(m.dst)
                assert n < 7 or d >= n


# ------------------------------------------------------------------------- R10, R13


def test_r10_target_becomes_village():
    state = position([(0, 1), SPARE_EDGE], {0: {"red": 2}, 1: {"blue": 1}, **SPARE})
    assert state.founds(Move(0, 1)) == (1,)
    state.play(Move(0, 1))
    assert state.is_village(1)
    assert [v.territory for v in state.villages] == [1]
    assert not state.is_over


def test_r10_neighbour_of_emptied_source_becomes_village():
    # 2 - 0 - 1 - 3: moving 0 into 1 cuts 2 off; 1 still has 3.
    state = position(
        [(2, 0), (0, 1), (1, 3), SPARE_EDGE],
        {0: {"red": 1}, 1: {"blue": 1}, 2: {"green": 1}, 3: {"yellow": 1}, **SPARE},
    )
    assert state.founds(Move(0, 1)) == (2,)
    state.play(Move(0, 1))
    assert [v.territory for v in state.villages] == [2]
    assert not state.is_village(1)
    assert state.legal_targets(1) == (3,)


def test_r10_a_single_hut_can_be_a_village():
    state = position(
        [(2, 0), (0, 1), (1, 3), SPARE_EDGE],
        {0: {"red": 1}, 1: {"blue": 1}, 2: {"green": 1}, 3: {"yellow": 1}, **SPARE},
    )
    state.play(Move(0, 1))
    (village,) = state.villages
    assert village.huts_by_clan() == {"green": 1}
    assert village.value == 1  # steppe, neutral in epoch I
    assert state.clan_points["green"] == 1


def test_r10_one_move_founds_several_villages():
    state = position(STAR, {0: {"red": 1}, 1: {"blue": 1}, 2: {"green": 1}, 3: {"yellow": 1}})
    assert state.founds(Move(0, 1)) == (1, 2, 3)
    state.play(Move(0, 1))
    assert sorted(v.territory for v in state.villages) == [1, 2, 3]
    assert state.chips == (3, 0)
    assert state.chips_taken == 3


def test_r10_territory_with_a_non_empty_neighbour_is_no_village():
    state = position([(0, 1), (1, 2), SPARE_EDGE], {0: {"red": 1}, 1: {"blue": 1}, 2: {"red": 1}})
    assert state.founds(Move(0, 1)) == ()
    assert state.play(Move(0, 1)) == [ev.Moved(0, 0, 1, 1, 2)]
    assert state.villages == ()


def test_r10_villages_are_exactly_the_cut_off_territories():
    for seed in range(10):
        state = random_game(seed)
        for _ in play_randomly(state, seed):
            if state.is_over:
                break  # R18 may leave unscored cut-off territories
            for t in range(60):
                if state.hut_total(t):
                    cut_off = all(state.hut_total(u) == 0 for u in BOARD.neighbors(t))
                    assert state.is_village(t) == cut_off, t


def test_r13_village_huts_never_move_again():
    for seed in range(10):
        state = random_game(seed)
        for _ in play_randomly(state, seed):
            villages = {v.territory for v in state.villages}
            for m in state.legal_moves():
                assert m.src not in villages and m.dst not in villages


# ------------------------------------------------------------------------------ R11

FOUR_LEAVES = {0: {"red": 1}, 1: {"blue": 1}, 2: {"green": 1}, 3: {"yellow": 1}}


def test_r11_the_movers_order_decides_the_chips():
    state = position(STAR, FOUR_LEAVES, terrain={1: "forest", 2: "forest", 3: "forest"})
    state.play(Move(0, 1, (3, 1, 2)))
    assert [(v.territory, v.chip) for v in state.villages] == [(3, 1), (1, 2), (2, 3)]
    assert state.moves[-1] == Move(0, 1, (3, 1, 2))


def test_r11_the_order_decides_the_epochs():
    for order in [(1, 2, 3), (2, 3, 1), (3, 2, 1)]:
        state = position(STAR, FOUR_LEAVES, chips_taken=2)
        state.play(Move(0, 1, order))
        assert [(v.territory, v.epoch) for v in state.villages] == list(
            zip(order, (1, 1, 2), strict=True)
        )


def test_r11_default_order_is_ascending():
    state = position(STAR, FOUR_LEAVES)
    state.play(Move(0, 1))
    assert [v.territory for v in state.villages] == [1, 2, 3]


def test_r11_default_order_is_recorded_as_a_tuple():
    # Regression: the order used to be recorded as the list [1, 2, 3] (unhashable Move).
    state = position(STAR, FOUR_LEAVES)
    state.play(Move(0, 1))
    recorded = state.moves[-1]
    hash(recorded)
    assert recorded in (Move(0, 1), Move(0, 1, (1, 2, 3)))


@pytest.mark.parametrize("order", [(1, 2), (1, 2, 2, 3), (1, 2, 3, 4), (1, 2, 5), ()])
def test_r11_an_invalid_order_is_rejected(order):
    state = position(STAR, FOUR_LEAVES)
    illegal(
        state,
        Move(0, 1, order),
        f"village order {list(order)} must list the villages this move founds, each once: "
        "[1, 2, 3]",
    )


def test_r11_order_of_a_single_village():
    state = position([(0, 1), SPARE_EDGE], {0: {"red": 1}, 1: {"blue": 1}, **SPARE})
    illegal(state, Move(0, 1, (0,)), "village order [0] must list")
    state.play(Move(0, 1, (1,)))
    assert [v.territory for v in state.villages] == [1]
