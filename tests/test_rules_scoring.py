"""The rules engine against RULES.md: villages, scoring, epochs, the end and secrecy
(R12, R14-R22), and the events a move reports.

Hand-made positions use the helpers of tests/test_rules_moves.py. Terrain there defaults to
steppe, which is neutral in epochs I and II. First chip of each epoch: I 1, II 5, III 8,
IV 10, V 12, so ``chips_taken`` 0, 4, 7, 9, 11 makes the next village belong to it.
"""

from __future__ import annotations

import json

import pytest

from clans_pi.bots.random_mover import RandomMover
from clans_pi.rules import events as ev
from clans_pi.rules.constants import CLANS
from clans_pi.rules.errors import IllegalMoveError
from clans_pi.rules.moves import Move
from clans_pi.rules.state import GameState
from tests.rules_helpers import (
    CHART,
    SPARE,
    SPARE_EDGE,
    STAR,
    play_randomly,
    position,
    random_game,
)

# Every move and playout here is checked against the compiled core too.
pytestmark = pytest.mark.usefixtures("compiled_twin")

PAIR = [(0, 1), SPARE_EDGE]  # 0 and 1 neighbours of each other only: 0 -> 1 founds 1
FIRST_CHIP_TAKEN = {1: 0, 2: 4, 3: 7, 4: 9, 5: 11}  # chips_taken before epoch e's first chip
TERRAINS = ("forest", "mountain", "steppe", "grassland")
# RULES.md R15, written out here rather than read from the chart under test.
TABLE = {1: (1, "forest", "mountain"), 2: (2, "mountain", "grassland"), 3: (3, "steppe", "forest")}
TABLE[4] = (4, "grassland", "steppe")


def found_one(
    huts_src: dict[str, int],
    huts_dst: dict[str, int],
    *,
    terrain: str = "steppe",
    chips_taken: int = 0,
    clans: tuple[str, ...] = ("red", "blue"),
) -> tuple[GameState, list[ev.Event]]:
    """Move territory 0 (``huts_src``) into territory 1 (``huts_dst``, on ``terrain``),
    founding village 1; a spare pair keeps the game going."""
    state = position(
        PAIR,
        {0: huts_src, 1: huts_dst, **SPARE},
        terrain={1: terrain},
        chips_taken=chips_taken,
        clans=clans,
    )
    return state, state.play(Move(0, 1))


# ------------------------------------------------------------------------------ R12


def test_r12_rulebook_example_strife_in_a_nine_hut_village():
    state, events = found_one(
        {"black": 4, "red": 2}, {"green": 1, "yellow": 1, "blue": 1}, clans=("black", "green")
    )
    (village,) = state.villages
    assert village.huts_by_clan() == {"red": 2, "black": 4}
    assert village.lost == ("blue", "green", "yellow")
    assert village.value == 6
    assert state.clan_points == {"red": 6, "blue": 0, "green": 0, "yellow": 0, "black": 6}
    assert state.huts(1) == {"red": 2, "black": 4}  # the single huts left the game
    assert state.huts_removed() == 3
    assert state.chips == (1, 0)  # R12.1: the founder's chip
    assert state.scores() == (7, 0)
    assert ev.Strife(1, ("blue", "green", "yellow")) in events


def test_r12_founder_is_the_player_who_moved():
    state = position(PAIR, {0: {"red": 1}, 1: {"blue": 1}, 10: {"green": 2}, **SPARE})
    state.play(Move(*SPARE_EDGE))  # player 0 founds the spare village
    state.play(Move(0, 1))  # player 1 founds village 1
    assert [(v.territory, v.founder) for v in state.villages] == [(SPARE_EDGE[1], 0), (1, 1)]
    assert state.chips == (1, 1)


def test_r12_no_strife_with_four_clans():
    state, events = found_one({"red": 1, "blue": 1}, {"green": 1, "yellow": 3})
    (village,) = state.villages
    assert village.lost == ()
    assert village.value == 6
    assert state.clan_points == {"red": 6, "blue": 6, "green": 6, "yellow": 6, "black": 0}
    assert not any(isinstance(e, ev.Strife) for e in events)


def test_r12_strife_spares_clans_with_two_or_more_huts():
    state, events = found_one({"red": 2, "blue": 2, "green": 2}, {"yellow": 2, "black": 2})
    assert state.villages[0].lost == ()
    assert state.villages[0].value == 10
    assert set(state.clan_points.values()) == {10}
    assert not any(isinstance(e, ev.Strife) for e in events)


def test_r12_strife_can_empty_a_village():
    state, events = found_one(
        {"red": 1, "blue": 1}, {"green": 1, "yellow": 1, "black": 1}, terrain="forest"
    )
    assert ev.Strife(1, CLANS) in events
    assert state.hut_total(1) == 0
    assert set(state.clan_points.values()) == {0}  # nobody is left to score
    assert state.chips == (1, 0)


def test_r12_every_clan_present_gets_the_full_value():
    state, _ = found_one({"red": 5}, {"blue": 1})
    assert state.clan_points["red"] == state.clan_points["blue"] == 6


# ------------------------------------------------------------------------- R14, R15


def test_r14_rulebook_example_forest_in_epoch_one():
    state, _ = found_one({"blue": 3}, {"yellow": 1, "red": 1}, terrain="forest")
    assert state.villages[0].value == 6
    assert state.clan_points == {"red": 6, "blue": 6, "green": 0, "yellow": 6, "black": 0}


def test_r14_rulebook_example_steppe_in_epoch_three_adds_three():
    state, _ = found_one({"green": 2}, {"black": 2}, chips_taken=7)
    assert (state.villages[0].epoch, state.villages[0].value) == (3, 7)
    assert state.clan_points["green"] == state.clan_points["black"] == 7


def test_r14_rulebook_example_grassland_in_epoch_two_scores_nothing():
    state, events = found_one({"red": 3}, {"blue": 2}, terrain="grassland", chips_taken=4)
    (village,) = state.villages
    assert (village.epoch, village.value, village.removed) == (2, 0, True)
    assert set(state.clan_points.values()) == {0}
    assert state.huts(1) == {}  # the huts left the board
    assert state.huts_removed() == 5
    assert state.chips == (1, 0)  # the founder keeps the chip
    assert ev.VillageScored(1, 0, (), "hostile") in events


@pytest.mark.parametrize("epoch", [1, 2, 3, 4])
@pytest.mark.parametrize("terrain", TERRAINS)
def test_r14_r15_village_value_by_epoch_and_terrain(epoch, terrain):
    bonus, favourable, hostile = TABLE[epoch]
    state, events = found_one(
        {"red": 1, "blue": 1}, {"green": 1}, terrain=terrain, chips_taken=FIRST_CHIP_TAKEN[epoch]
    )
    expected = 0 if terrain == hostile else 3 + bonus if terrain == favourable else 3
    effect = "hostile" if terrain == hostile else "favourable" if terrain == favourable else None
    (village,) = state.villages
    assert (village.epoch, village.value) == (epoch, expected)
    assert events[2] == ev.VillageScored(
        1, expected, () if expected == 0 else ("red", "blue", "green"), effect or "neutral"
    )
    assert [state.clan_points[c] for c in ("red", "blue", "green")] == [expected] * 3
    assert state.hut_total(1) == (0 if terrain == hostile else 3)


def test_r14_strife_comes_before_the_value():
    state, _ = found_one(
        {"red": 3, "blue": 1}, {"green": 1, "yellow": 1, "black": 2}, terrain="forest"
    )
    assert state.villages[0].value == 5 + 1  # 5 huts after strife, +1 for forest in epoch I
    assert state.clan_points == {"red": 6, "blue": 0, "green": 0, "yellow": 0, "black": 6}


def test_r15_a_variant_chart_is_played():
    data = CHART.to_dict()
    data["epochs"][0].update(bonus=7, favourable=["steppe"], hostile=["forest"])
    variant = type(CHART).from_dict(data)
    state = position(PAIR, {0: {"red": 1}, 1: {"blue": 1}, **SPARE}, chart=variant)
    state.play(Move(0, 1))
    assert state.villages[0].value == 2 + 7


# ------------------------------------------------------------------------------ R16


def test_r16_epoch_ends_when_its_last_chip_is_taken():
    huts = {0: {"red": 1}, 1: {"blue": 1}, 5: {"red": 1}, 6: {"green": 1}, **SPARE}
    state = position([*PAIR, (5, 6)], huts, chips_taken=3)
    assert state.epoch == 1
    events = state.play(Move(0, 1))
    assert state.villages[-1][1:3] == (4, 1)  # chip 4 is epoch I's last
    assert events[-1] == ev.EpochChanged(2)
    assert state.epoch == 2
    state.play(Move(5, 6))
    assert state.villages[-1][1:3] == (5, 2)


@pytest.mark.parametrize("order", [(1, 2), (2, 1)])
def test_r16_two_villages_from_one_move_across_an_epoch_boundary(order):
    state = position(
        STAR,
        {0: {"red": 1}, 1: {"blue": 1}, 2: {"green": 2}, **SPARE},
        terrain={1: "forest", 2: "forest"},
        chips_taken=3,
    )
    events = state.play(Move(0, 1, order))
    first, second = order
    assert [(v.territory, v.chip, v.epoch) for v in state.villages] == [
        (first, 4, 1),
        (second, 5, 2),
    ]
    # forest: favourable (+1) in epoch I, neutral in epoch II
    sizes = [state.hut_total(first), state.hut_total(second)]
    assert [v.value for v in state.villages] == [sizes[0] + 1, sizes[1]]
    assert [type(e) for e in events] == [
        ev.Moved,
        ev.VillageFounded,
        ev.VillageScored,
        ev.EpochChanged,
        ev.VillageFounded,
        ev.VillageScored,
    ]
    assert events[3] == ev.EpochChanged(2)


def test_r16_chips_and_epochs_over_whole_games():
    for seed in range(10):
        state = random_game(seed)
        for _move, events in play_randomly(state, seed):
            for e in events:
                if isinstance(e, ev.VillageFounded):
                    assert e.epoch == CHART.chip_epoch[e.chip]
        assert [v.chip for v in state.villages] == list(range(1, len(state.villages) + 1))
        epochs = [v.epoch for v in state.villages]
        assert epochs == [1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5][: len(epochs)]


# ------------------------------------------------------------------------- R17, R18


@pytest.mark.parametrize("terrain", TERRAINS)
def test_r17_twelfth_village_gets_plus_five_whatever_the_terrain(terrain):
    # mountain is hostile in epoch I, steppe in epoch IV: neither matters for the 12th
    state, _ = found_one({"red": 2}, {"blue": 1}, terrain=terrain, chips_taken=11)
    (village,) = state.villages
    assert (village.chip, village.epoch, village.value) == (12, 5, 8)
    assert state.clan_points["red"] == state.clan_points["blue"] == 8


def test_r18_game_ends_when_the_twelfth_village_is_scored():
    state, events = found_one({"red": 2}, {"blue": 1}, chips_taken=11)
    assert state.is_over and state.end_reason == "twelfth_village"
    assert state.live_mask  # the spare pair could still move, but the game is over
    assert state.legal_moves() == [] and state.legal_targets(SPARE_EDGE[0]) == ()
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.play(Move(*SPARE_EDGE))
    assert isinstance(events[-1], ev.GameOver) and events[-1].reason == "twelfth_village"


@pytest.mark.parametrize(
    ("order", "points"), [((1, 2), {"red": 7, "blue": 7}), ((2, 1), {"green": 6})]
)
def test_r18_twelfth_and_thirteenth_village_from_one_move(order, points):
    state = position(
        STAR,
        {0: {"red": 1}, 1: {"blue": 1}, 2: {"green": 1}, **SPARE},
        chips_taken=11,
        clans=("blue", "green"),
    )
    events = state.play(Move(0, 1, order))
    scored, unscored = order
    assert [v.territory for v in state.villages] == [scored]
    assert state.is_village(scored) and not state.is_village(unscored)
    assert state.chips == (1, 0)  # one chip only
    assert state.clan_points == {**dict.fromkeys(CLANS, 0), **points}  # huts + 5, others 0
    assert state.end_reason == "twelfth_village"
    assert [type(e) for e in events] == [
        ev.Moved,
        ev.VillageFounded,
        ev.VillageScored,
        ev.VillageUnscored,
        ev.GameOver,
    ]
    assert events[3] == ev.VillageUnscored(unscored)


def test_r18_only_the_remaining_chips_are_handed_out():
    state = position(
        [(0, 1), (0, 2), (0, 3), SPARE_EDGE],
        {0: {"red": 1}, 1: {"blue": 1}, 2: {"green": 1}, 3: {"yellow": 1}, **SPARE},
        chips_taken=10,
    )
    events = state.play(Move(0, 1, (3, 2, 1)))
    assert [(v.territory, v.chip) for v in state.villages] == [(3, 11), (2, 12)]
    assert ev.VillageUnscored(1) in events
    assert state.chips == (2, 0)
    assert state.clan_points["blue"] == state.clan_points["red"] == 0


# ------------------------------------------------------------------------------ R19


def test_r19_no_move_possible_ends_the_game():
    state = position(PAIR, {0: {"red": 1}, 1: {"blue": 1}})
    events = state.play(Move(0, 1))
    assert state.end_reason == "no_moves"
    assert len(state.villages) == 1 and state.chips_taken == 1
    assert [type(e) for e in events] == [
        ev.Moved,
        ev.VillageFounded,
        ev.VillageScored,
        ev.GameOver,
    ]
    assert events[-1].reason == "no_moves"
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.play(Move(0, 1))


def test_r19_a_position_without_moves_is_over():
    state = position(PAIR, {0: {"red": 1}, 5: {"blue": 3}})
    assert state.is_over and state.end_reason == "no_moves"
    assert state.legal_moves() == [] and state.villages == ()
    assert state.winners() == (0, 1)


def test_r19_nothing_more_is_scored_after_no_moves():
    ended = 0
    for seed in range(60):
        state = random_game(seed)
        for _ in play_randomly(state, seed):
            pass
        if state.end_reason == "no_moves":
            ended += 1
            assert len(state.villages) < 12
            assert state.chips_taken == len(state.villages)
            assert state.live_mask == 0  # every group left is a scored village
            assert all(state.is_village(t) for t in range(60) if state.hut_total(t))
    assert ended  # some random games do end this way


# ------------------------------------------------------------------------- R20, R21


def test_r20_scores_are_clan_points_plus_chips():
    for seed in range(15):
        state = random_game(seed, players=("A", "B", "C", "D")[: 2 + seed % 3])
        for _ in play_randomly(state, seed):
            pass
        points = dict.fromkeys(CLANS, 0)
        for v in state.villages:
            for clan in v.huts_by_clan():
                points[clan] += v.value
        assert state.clan_points == points
        assert sum(state.chips) == len(state.villages)
        assert state.scores() == tuple(
            points[state.clan_of(i)] + state.chips[i] for i in range(state.num_players)
        )


def test_r21_highest_score_wins():
    state = position(PAIR, {0: {"red": 2}, 1: {"green": 1}})
    state.play(Move(0, 1))  # red 3 + 1 chip, blue 0
    assert state.scores() == (4, 0)
    assert state.winners() == (0,)


def test_r21_ties_share_the_win():
    state = position(
        [*PAIR, (5, 6)], {5: {"green": 1}, 6: {"green": 1}, 0: {"red": 1}, 1: {"blue": 1}}
    )
    state.play(Move(5, 6))  # Ann founds a green village: 1 chip
    assert state.winners() == ()  # not over yet
    events = state.play(Move(0, 1))  # Bob founds red + blue: 2 each, 1 chip
    assert state.is_over
    assert state.scores() == (3, 3)
    assert state.winners() == (0, 1)
    assert events[-1] == ev.GameOver("no_moves", ("red", "blue"), (3, 3), (0, 1))


def test_r21_winners_empty_while_playing():
    state = random_game(8)
    for _ in play_randomly(state, 8):
        if not state.is_over:
            assert state.winners() == ()
            assert state.observation(None).winners == ()
    assert state.winners()


# ------------------------------------------------------------------------------ R22


def other_clans(clans: tuple[str, ...], keep: int | None) -> tuple[str, ...]:
    """Every player but ``keep`` gets another clan, all still distinct."""
    pool = [c for c in CLANS if keep is None or c != clans[keep]]
    return tuple(
        c if i == keep else pool[(pool.index(c) + 1) % len(pool)] for i, c in enumerate(clans)
    )


def twin(state: GameState, clans: tuple[str, ...]) -> GameState:
    """The same deal with other clans for the players."""
    huts = {t: CLANS[c] for t, c in enumerate(state.initial_huts)}
    return GameState(state.board, state.chart, state.players, clans, huts)


@pytest.mark.parametrize("viewer", [None, 0, 1, 2, 3])
def test_r22_a_view_does_not_depend_on_other_players_clans(viewer):
    for seed in range(3):
        state = random_game(seed, players=("A", "B", "C", "D"))
        other = twin(state, other_clans(state.clans, viewer))
        assert all(
            (a == b) == (i == viewer)
            for i, (a, b) in enumerate(zip(state.clans, other.clans, strict=True))
        )
        mover = RandomMover(seed)
        while True:
            mine, theirs = state.observation(viewer), other.observation(viewer)
            if state.is_over:
                break
            assert mine == theirs
            assert json.dumps(mine.to_dict()) == json.dumps(theirs.to_dict())
            move = mover.choose(state)
            events, other_events = state.play(move), other.play(move)
            if state.is_over:  # everything but the reveal is the same
                assert events[:-1] == other_events[:-1]
            else:
                assert events == other_events
        assert mine.revealed_clans == state.clans != theirs.revealed_clans == other.clans


def test_r22_a_player_sees_only_their_own_clan():
    state = random_game(5, players=("A", "B", "C", "D"))
    for _ in zip(play_randomly(state, 5), range(20), strict=False):
        pass
    assert not state.is_over
    for viewer in range(4):
        view = state.observation(viewer)
        assert view.own_clan == state.clan_of(viewer)
        data = json.loads(json.dumps(view.to_dict()))
        assert data["own_clan"] == state.clan_of(viewer)
        assert data["revealed_clans"] is None and data["scores"] is None
        assert data["winners"] == []
        assert view.revealed_clans is None and view.scores is None
    public = json.loads(json.dumps(state.observation(None).to_dict()))
    assert public["own_clan"] is None and public["viewer"] is None
    assert public["revealed_clans"] is None and public["scores"] is None
    assert public["chips"] == list(state.chips)  # public (R22)
    assert public["clan_points"] == state.clan_points  # public (R22)


def test_r22_everything_is_revealed_at_the_end():
    state = random_game(6, players=("A", "B", "C"))
    for _ in play_randomly(state, 6):
        pass
    for viewer in (None, 0, 1, 2):
        view = state.observation(viewer)
        assert view.revealed_clans == state.clans
        assert view.scores == state.scores()
        assert view.winners == state.winners()
        assert view.end == state.end_reason
        data = json.loads(json.dumps(view.to_dict()))
        assert data["revealed_clans"] == list(state.clans)


def test_r22_events_before_game_over_name_no_players_clan():
    for seed in range(10):
        state = random_game(seed, players=("A", "B"))
        for _move, events in play_randomly(state, seed):
            for e in events:
                if isinstance(e, ev.GameOver):
                    assert e.clans == state.clans and e.scores == state.scores()
                    assert e.winners == state.winners()
                else:
                    assert state.clans not in [getattr(e, f) for f in e.__slots__]


# ----------------------------------------------------------------------------- events


def test_events_a_plain_move_reports_moved_only():
    state = position([(0, 1), (1, 2), SPARE_EDGE], {0: {"red": 2}, 1: {"blue": 1}, 2: {"red": 1}})
    assert state.play(Move(0, 1)) == [ev.Moved(0, 0, 1, 2, 3)]


def test_events_village_with_strife_in_order():
    _, events = found_one(
        {"black": 4, "red": 2}, {"green": 1, "yellow": 1, "blue": 1}, terrain="forest"
    )
    assert events == [
        ev.Moved(0, 0, 1, 6, 9),
        ev.VillageFounded(1, 1, 1, 0),
        ev.Strife(1, ("blue", "green", "yellow")),
        ev.VillageScored(1, 7, ("red", "black"), "favourable"),
    ]


def test_events_last_village_of_an_epoch_then_game_over():
    state = position(STAR, {0: {"red": 1}, 1: {"blue": 1}, 2: {"green": 1}}, chips_taken=10)
    events = state.play(Move(0, 1, (2, 1)))
    assert events == [
        ev.Moved(0, 0, 1, 1, 2),
        ev.VillageFounded(2, 11, 4, 0),
        ev.VillageScored(2, 0, (), "hostile"),  # steppe is hostile in epoch IV
        ev.EpochChanged(5),
        ev.VillageFounded(1, 12, 5, 0),
        ev.VillageScored(1, 7, ("red", "blue"), "favourable"),
        ev.GameOver("twelfth_village", ("red", "blue"), (7 + 2, 7), (0,)),
    ]
