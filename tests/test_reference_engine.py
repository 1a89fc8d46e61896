"""Tests of the reference engine (tests/reference_engine.py) on tiny hand-made boards.

Test names cite the rule (RULES.md) they check. Where a test needs groups of 7+ huts, it
sets the hut counts directly instead of playing dozens of moves.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from tests.reference_engine import CLANS, ReferenceGame, ReferenceIllegalMove

CHART_PATH = Path(__file__).resolve().parent.parent / "clans_pi" / "rules" / "data" / "epochs.json"
STANDARD_CHART = json.loads(CHART_PATH.read_text())


def make_board(terrains: dict[int, str], edges: list[tuple[int, int]]) -> dict:
    neighbours: dict[int, set[int]] = {t: set() for t in terrains}
    for a, b in edges:
        neighbours[a].add(b)
        neighbours[b].add(a)
    return {
        "territories": [
            {"id": t, "terrain": terrains[t], "region": 0, "neighbors": sorted(neighbours[t])}
            for t in sorted(terrains)
        ]
    }


def chart_with_first_epoch_chips(n: int) -> dict:
    chart = copy.deepcopy(STANDARD_CHART)
    chart["epochs"][0]["chips"] = n
    return chart


def make_game(terrains, edges, huts=None, chart=None, num_players=2, clans=None):
    if huts is None:
        huts = {t: CLANS[i % 5] for i, t in enumerate(sorted(terrains))}
    return ReferenceGame(
        make_board(terrains, edges),
        chart if chart is not None else STANDARD_CHART,
        num_players,
        clans if clans is not None else list(CLANS[:num_players]),
        huts,
    )


def set_huts(game: ReferenceGame, tid: int, **counts: int) -> None:
    game.huts[tid] = Counter(counts)


def triangle_game(a: int, b: int) -> ReferenceGame:
    """Territories 1, 2, 3 all neighbours; 1 holds a huts, 2 holds b huts (all black)."""
    game = make_game({1: "steppe", 2: "steppe", 3: "steppe"}, [(1, 2), (2, 3), (1, 3)])
    set_huts(game, 1, black=a)
    set_huts(game, 2, black=b)
    return game


# ---------------------------------------------------------------- R8 / R9


def test_r8_only_into_non_empty_neighbours():
    game = make_game({1: "steppe", 2: "steppe", 3: "steppe", 4: "steppe"}, [(1, 2), (2, 3), (3, 4)])
    assert game.legal_moves() == {(1, 2), (2, 1), (2, 3), (3, 2), (3, 4), (4, 3)}
    with pytest.raises(ReferenceIllegalMove):
        game.play(1, 3)  # not a neighbour
    game.play(2, 3)  # 1 becomes a village; 2 stays empty
    assert (1, 2) not in game.legal_moves()
    assert (3, 2) not in game.legal_moves()
    with pytest.raises(ReferenceIllegalMove):
        game.play(3, 2)  # into an empty territory


def test_r9_seven_into_six_illegal():
    game = triangle_game(7, 6)
    assert (1, 2) not in game.legal_moves()
    with pytest.raises(ReferenceIllegalMove):
        game.play(1, 2)


def test_r9_six_into_seven_legal():
    game = triangle_game(6, 7)
    assert (1, 2) in game.legal_moves()


def test_r9_seven_into_eight_legal_and_eight_into_seven_illegal():
    game = triangle_game(7, 8)
    moves = game.legal_moves()
    assert (1, 2) in moves
    assert (2, 1) not in moves


def test_r9_seven_into_seven_both_ways():
    game = triangle_game(7, 7)
    moves = game.legal_moves()
    assert (1, 2) in moves
    assert (2, 1) in moves
    # A big group cannot go into the small group on 3 (1 hut), but 3 can go into it.
    assert (1, 3) not in moves
    assert (2, 3) not in moves
    assert (3, 1) in moves
    assert (3, 2) in moves


def test_r9_is_a_permission_not_forced():
    game = triangle_game(7, 7)
    game.play(3, 1)  # a small move is allowed although a 7-into-7 move exists
    assert game.size(1) == 8


# ---------------------------------------------------------------- R10


def test_r10_village_from_emptied_source_neighbour():
    terrains = {1: "steppe", 2: "steppe", 3: "steppe", 4: "steppe"}
    game = make_game(
        terrains, [(1, 2), (2, 3), (3, 4)], huts={1: "red", 2: "blue", 3: "green", 4: "yellow"}
    )
    assert game.villages_founded_by(2, 3) == {1}
    assert game.villages_founded_by(1, 2) == set()
    game.play(2, 3)
    res = game.result()
    assert res["villages"] == [
        {"territory": 1, "chip": 1, "epoch": 1, "founder": 0, "huts": {"red": 1}, "value": 1}
    ]
    assert res["clan_points"]["red"] == 1
    assert res["end"] == "in_progress"
    assert res["winners"] == []
    assert game.current_player() == 1


def test_r10_target_and_source_neighbour_both_villages():
    game = make_game({1: "steppe", 2: "steppe", 3: "steppe"}, [(1, 2), (2, 3)])
    assert game.villages_founded_by(2, 3) == {1, 3}
    assert game.villages_founded_by(1, 2) == set()  # 2 still touches 3


# ---------------------------------------------------------------- R11 / R16


def test_r11_order_across_epoch_boundary():
    # Path 1-2-3: moving 2 -> 3 founds 1 (forest, 1 hut) and 3 (mountain, 2 huts).
    # With 1 chip in epoch I, the first village is in epoch I, the second in epoch II.
    terrains = {1: "forest", 2: "steppe", 3: "mountain"}
    edges = [(1, 2), (2, 3)]
    huts = {1: "red", 2: "blue", 3: "green"}
    chart = chart_with_first_epoch_chips(1)

    default = make_game(terrains, edges, huts=huts, chart=chart)
    default.play(2, 3)  # default order: ascending id -> 1 then 3
    v = default.result()["villages"]
    assert [(x["territory"], x["chip"], x["epoch"], x["value"]) for x in v] == [
        (1, 1, 1, 2),  # forest favourable in I: 1 + 1
        (3, 2, 2, 4),  # mountain favourable in II: 2 + 2
    ]
    assert default.result()["clan_points"] == {
        "red": 2,
        "blue": 4,
        "green": 4,
        "yellow": 0,
        "black": 0,
    }

    reverse = make_game(terrains, edges, huts=huts, chart=chart)
    reverse.play(2, 3, order=[3, 1])
    v = reverse.result()["villages"]
    assert [(x["territory"], x["chip"], x["epoch"], x["value"]) for x in v] == [
        (3, 1, 1, 0),  # mountain hostile in I
        (1, 2, 2, 1),  # forest neutral in II
    ]
    assert reverse.result()["clan_points"]["red"] == 1
    assert reverse.result()["clan_points"]["blue"] == 0
    assert reverse.result()["chips"] == [2, 0]  # founder keeps both chips


def test_r11_order_must_be_a_permutation_of_founded_villages():
    game = make_game({1: "steppe", 2: "steppe", 3: "steppe"}, [(1, 2), (2, 3)])
    for bad in ([1], [3], [1, 2], [1, 3, 3], [1, 1]):
        with pytest.raises(ReferenceIllegalMove):
            game.play(2, 3, order=bad)
    assert game.result()["villages"] == []  # nothing changed
    game.play(2, 3, order=[3, 1])
    assert [v["territory"] for v in game.result()["villages"]] == [3, 1]


# ---------------------------------------------------------------- R12 / R14


def test_r12_strife_rulebook_example():
    # 9 huts: 4 black, 2 red, 1 green, 1 yellow, 1 blue on neutral terrain (steppe in I).
    terrains = {1: "steppe", 2: "steppe", 3: "steppe", 4: "steppe"}
    game = make_game(
        terrains, [(1, 2), (2, 3), (3, 4)], num_players=3, clans=["black", "green", "red"]
    )
    set_huts(game, 1, black=3, red=2, green=1, yellow=1)
    set_huts(game, 2, black=1, blue=1)
    assert game.villages_founded_by(2, 1) == {1}
    game.play(2, 1)
    res = game.result()
    assert res["villages"] == [
        {
            "territory": 1,
            "chip": 1,
            "epoch": 1,
            "founder": 0,
            "huts": {"red": 2, "black": 4},
            "value": 6,
        }
    ]
    assert res["clan_points"] == {"red": 6, "blue": 0, "green": 0, "yellow": 0, "black": 6}
    assert game.huts[1] == Counter(black=4, red=2)  # the single huts left the game
    assert res["scores"] == [7, 0, 6]


def test_r12_no_strife_with_four_clans():
    terrains = {1: "steppe", 2: "steppe", 3: "steppe", 4: "steppe"}
    game = make_game(terrains, [(1, 2), (2, 3), (3, 4)])
    set_huts(game, 1, black=3, red=1, green=1)
    set_huts(game, 2, yellow=1)
    game.play(2, 1)
    v = game.result()["villages"][0]
    assert v["huts"] == {"red": 1, "green": 1, "yellow": 1, "black": 3}
    assert v["value"] == 6
    assert game.result()["clan_points"]["blue"] == 0
    assert game.result()["clan_points"]["red"] == 6


def test_r14_five_huts_on_forest_in_epoch_one_score_six():
    terrains = {1: "forest", 2: "steppe", 3: "steppe", 4: "steppe"}
    game = make_game(terrains, [(1, 2), (2, 3), (3, 4)])
    set_huts(game, 1, red=2, blue=1)
    set_huts(game, 2, red=1, green=1)
    game.play(2, 1)
    res = game.result()
    assert res["villages"][0]["value"] == 6
    assert res["villages"][0]["epoch"] == 1
    assert res["clan_points"] == {"red": 6, "blue": 6, "green": 6, "yellow": 0, "black": 0}


def test_r14_grassland_in_epoch_two_scores_zero_and_huts_removed():
    # Chart with 1 chip in epoch I: the second village is in epoch II (grassland hostile).
    terrains = {1: "steppe", 2: "steppe", 3: "grassland", 4: "steppe", 5: "steppe"}
    edges = [(1, 2), (3, 4), (4, 5)]
    game = make_game(
        terrains,
        edges,
        huts={1: "red", 2: "red", 3: "blue", 4: "green", 5: "black"},
        chart=chart_with_first_epoch_chips(1),
    )
    game.play(1, 2)  # village 2 (steppe, epoch I): 2 points for red
    game.play(4, 3)  # village 3 (grassland, epoch II): hostile
    res = game.result()
    assert res["villages"][1] == {
        "territory": 3,
        "chip": 2,
        "epoch": 2,
        "founder": 1,
        "huts": {"blue": 1, "green": 1},
        "value": 0,
    }
    # Black's lone hut on 5 is the third village (steppe, epoch II, neutral): 1 point.
    assert res["clan_points"] == {"red": 2, "blue": 0, "green": 0, "yellow": 0, "black": 1}
    assert game.size(3) == 0  # huts removed
    assert res["chips"] == [1, 2]  # founder keeps the chip of the hostile village
    # Territory 5 became a village too (its only neighbour 4 was emptied).
    assert [v["territory"] for v in res["villages"]] == [2, 3, 5]


# ---------------------------------------------------------------- R16-R21


def pairs_board():
    """11 separate pairs (2k-1, 2k), k = 1..11, all steppe, then a path 23-24-25 with
    23 mountain, 24 steppe, 25 grassland. Standard chart."""
    terrains = {t: "steppe" for t in range(1, 23)}
    terrains.update({23: "mountain", 24: "steppe", 25: "grassland"})
    edges = [(2 * k - 1, 2 * k) for k in range(1, 12)] + [(23, 24), (24, 25)]
    huts = {t: CLANS[(t - 1) % 5] for t in terrains}
    return terrains, edges, huts


def test_r16_r17_r18_last_chip_with_two_villages():
    terrains, edges, huts = pairs_board()
    game = make_game(terrains, edges, huts=huts, num_players=2, clans=["red", "blue"])
    for k in range(1, 12):
        assert not game.is_over()
        game.play(2 * k - 1, 2 * k)  # founds village 2k (2 huts, steppe)
    villages = game.result()["villages"]
    # R16: chips 4-3-2-2 fall into epochs I, II, III, IV in sequence.
    assert [v["epoch"] for v in villages] == [1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4]
    # Steppe: neutral in I and II, favourable (+3) in III, hostile in IV.
    assert [v["value"] for v in villages] == [2, 2, 2, 2, 2, 2, 2, 5, 5, 0, 0]
    assert [v["founder"] for v in villages] == [0, 1] * 5 + [0]
    assert game.current_player() == 1
    # The last move founds two villages (23 and 25) but only one chip is left.
    assert game.villages_founded_by(24, 25) == {23, 25}
    game.play(24, 25, order=[23, 25])
    res = game.result()
    assert len(res["villages"]) == 12
    last = res["villages"][-1]
    # R17: the 12th village scores +5 whatever its terrain (mountain, 1 hut).
    assert last == {
        "territory": 23,
        "chip": 12,
        "epoch": 5,
        "founder": 1,
        "huts": {"green": 1},
        "value": 6,
    }
    assert all(v["territory"] != 25 for v in res["villages"])  # not scored at all
    assert game.is_over()
    assert game.legal_moves() == set()
    assert res["end"] == "twelfth_village"
    assert res["chips"] == [6, 6]
    with pytest.raises(ReferenceIllegalMove):
        game.play(1, 2)
    # Red huts sit on 1, 6, 11, 16, 21 -> villages 2, 6, 12, 16, 22 contain red.
    assert res["clan_points"]["red"] == 2 + 2 + 2 + 5 + 0
    assert res["scores"] == [res["clan_points"]["red"] + 6, res["clan_points"]["blue"] + 6]


def test_r18_mover_chooses_which_village_takes_last_chip():
    terrains, edges, huts = pairs_board()
    game = make_game(terrains, edges, huts=huts)
    for k in range(1, 12):
        game.play(2 * k - 1, 2 * k)
    game.play(24, 25, order=[25, 23])
    last = game.result()["villages"][-1]
    # Grassland, 2 huts (yellow from 24, black from 25), +5 as the 12th village (R17).
    assert last["territory"] == 25
    assert last["value"] == 2 + 5
    assert last["huts"] == {"yellow": 1, "black": 1}
    # Yellow huts sit on 4, 9, 14, 19, 24: villages 4 (I), 10 (II), 14 (II), 20 (IV), 25.
    assert game.result()["clan_points"]["yellow"] == 2 + 2 + 2 + 0 + 7
    # Green huts sit on 3, 8, 13, 18, 23: villages 4, 8, 14, 18 (III) and unscored 23.
    assert game.result()["clan_points"]["green"] == 2 + 2 + 2 + 5


def test_r19_no_moves_ends_the_game():
    game = make_game(
        {1: "steppe", 2: "steppe", 3: "steppe", 4: "forest"},
        [(1, 2), (3, 4)],
        huts={1: "red", 2: "blue", 3: "green", 4: "red"},
        num_players=2,
        clans=["red", "green"],
    )
    game.play(1, 2)
    assert not game.is_over()
    assert game.result()["end"] == "in_progress"
    game.play(3, 4)
    assert game.is_over()
    assert game.legal_moves() == set()
    res = game.result()
    assert res["end"] == "no_moves"
    assert len(res["villages"]) == 2
    # red: 2 (village 2) + 3 (forest village 4, epoch I); green: 3.
    assert res["clan_points"] == {"red": 5, "blue": 2, "green": 3, "yellow": 0, "black": 0}
    assert res["scores"] == [6, 4]
    assert res["winners"] == [0]
    with pytest.raises(ReferenceIllegalMove):
        game.play(2, 1)


def test_r21_equal_highest_scores_share_the_win():
    game = make_game(
        {1: "steppe", 2: "steppe"},
        [(1, 2)],
        huts={1: "red", 2: "blue"},
        num_players=2,
        clans=["red", "blue"],
    )
    game.play(1, 2)
    res = game.result()
    assert res["end"] == "no_moves"
    assert res["scores"] == [3, 2]
    assert res["winners"] == [0]

    game = make_game(
        {1: "steppe", 2: "steppe"},
        [(1, 2)],
        huts={1: "red", 2: "blue"},
        num_players=3,
        clans=["red", "blue", "black"],
    )
    game.play(1, 2)
    assert game.result()["scores"] == [3, 2, 0]

    game = make_game(
        {1: "steppe", 2: "steppe", 3: "steppe", 4: "steppe"},
        [(1, 2), (3, 4)],
        huts={1: "red", 2: "blue", 3: "red", 4: "blue"},
        num_players=2,
        clans=["red", "blue"],
    )
    game.play(1, 2)
    game.play(3, 4)
    res = game.result()
    assert res["scores"] == [4 + 1, 4 + 1]
    assert res["winners"] == [0, 1]


def test_result_is_json_serialisable():
    terrains, edges, huts = pairs_board()
    game = make_game(terrains, edges, huts=huts)
    game.play(1, 2)
    res = game.result()
    assert json.loads(json.dumps(res)) == res
    assert set(res) == {"clan_points", "chips", "scores", "winners", "villages", "end"}


def test_r8_r18_r19_random_playouts_end_and_keep_invariants():
    # A 6 x 5 grid, terrains cycling, standard chart, 3 players.
    terrain_cycle = ("forest", "mountain", "steppe", "grassland", "grassland")
    terrains = {r * 6 + c: terrain_cycle[(r + c) % 5] for r in range(5) for c in range(6)}
    edges = [(t, t + 1) for t in terrains if t % 6 != 5] + [(t, t + 6) for t in terrains if t < 24]
    for seed in range(20):
        rng = random.Random(seed)
        huts = {t: rng.choice(CLANS) for t in terrains}
        game = make_game(terrains, edges, huts=huts, num_players=3, clans=["red", "blue", "green"])
        moves = 0
        while not game.is_over():
            src, dst = rng.choice(sorted(game.legal_moves()))
            founded = game.villages_founded_by(src, dst)
            order = sorted(founded)
            rng.shuffle(order)
            game.play(src, dst, order=order)
            moves += 1
            assert game.current_player() == moves % 3
            assert sum(game.size(t) for t in terrains) <= 30
        res = game.result()
        assert res["end"] in ("twelfth_village", "no_moves")
        assert sum(res["chips"]) == len(res["villages"]) <= 12
        assert [v["chip"] for v in res["villages"]] == list(range(1, len(res["villages"]) + 1))
        assert res["winners"]
        assert game.legal_moves() == set()
