"""The fast engine (clans_pi.rules.state) against the reference engine (tests/reference_engine.py).

The two are independent readings of RULES.md. Over many seeded random games on the shipped
board, with 2 to 4 players and random village orders (R11), and over random positions rich
in big groups (R9), they must agree at every step on the legal moves (R8, R9), on the
villages each move founds (R10), on the position, chips and clan points (R12-R17), and at
the end on the whole result (R18-R21).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import pytest

from clans_pi.bots.random_mover import RandomMover
from clans_pi.rules import record
from clans_pi.rules.board import iter_bits, load_default_board
from clans_pi.rules.constants import CLANS
from clans_pi.rules.epochs import load_default_chart
from clans_pi.rules.moves import Move
from clans_pi.rules.setup import deal
from clans_pi.rules.state import GameState
from tests.reference_engine import ReferenceGame

# Every move and playout here is checked against the compiled core too.
pytestmark = pytest.mark.usefixtures("compiled_twin")

BOARD = load_default_board()
CHART = load_default_chart()
BOARD_DICT = BOARD.to_dict()
CHART_DICT = CHART.to_dict()
NAMES = ("Ann", "Bob", "Cid", "Dee")
ALL = range(len(BOARD.territories))

GAMES = 150  # seeds 0..149; the player count cycles through 2, 3, 4
ENDGAME = 12  # the villages of every legal move are compared when there are this few moves
FULL_FOUNDS_GAMES = 2  # games where they are also compared at every fourth move


def reference_for(state: GameState) -> ReferenceGame:
    """A reference game with the same deal as ``state`` (before any move)."""
    huts = {t: CLANS[c] for t, c in enumerate(state.initial_huts)}
    return ReferenceGame(BOARD_DICT, CHART_DICT, state.num_players, list(state.clans), huts)


def where(seed: int, state: GameState) -> str:
    return f"seed {seed}, {state.num_players} players, after moves {[str(m) for m in state.moves]}"


def compare_position(
    seed: int, state: GameState, ref: ReferenceGame, territories: Iterable[int] = ALL
) -> None:
    """Huts in ``territories`` (all by default), clan points, chips and turn agree."""
    for t in territories:
        huts = ref.huts[t]
        assert state.hut_counts(t) == tuple(huts[c] for c in CLANS), f"{t}: {where(seed, state)}"
    assert state.clan_points == {c: ref.clan_points[c] for c in CLANS}, where(seed, state)
    assert list(state.chips) == ref.chips, where(seed, state)
    assert state.current_player == ref.current_player(), where(seed, state)


def check_founds(seed: int, state: GameState, ref: ReferenceGame, moves: list[Move]) -> None:
    """R10: the villages each of ``moves`` would found, by both engines."""
    for m in moves:
        got = state.founds(m)
        assert set(got) == ref.villages_founded_by(m.src, m.dst), f"{m}: {where(seed, state)}"
        assert list(got) == sorted(got)


def play_both(
    seed: int, *, all_founds_below: int = 0, all_founds_every: int = 0
) -> tuple[GameState, ReferenceGame]:
    """Deal and play one random game on both engines, comparing them at every step."""
    num_players = 2 + seed % 3
    state = deal(BOARD, NAMES[:num_players], random.Random(seed), CHART)
    ref = reference_for(state)
    default_order = seed % 5 == 4  # some games leave the order to the default (ascending)
    play_on(seed, state, ref, default_order, all_founds_below, all_founds_every)
    return state, ref


def play_on(
    seed: int,
    state: GameState,
    ref: ReferenceGame,
    default_order: bool = False,
    all_founds_below: int = 0,
    all_founds_every: int = 0,
) -> None:
    """Play random moves on both engines to the end, comparing them at every step. The
    villages founded by every legal move are compared when there are at most
    ``all_founds_below`` legal moves (late in the game, where villages are founded) and
    every ``all_founds_every`` moves; otherwise only those of the move played."""
    mover = RandomMover(seed + 10_000)
    compare_position(seed, state, ref)
    while True:
        legal = state.legal_moves()
        assert {(m.src, m.dst) for m in legal} == ref.legal_moves(), where(seed, state)
        assert len(legal) == state.legal_move_count()
        if state.is_over:
            break
        if len(legal) <= all_founds_below or (
            all_founds_every and state.ply % all_founds_every == seed % all_founds_every
        ):
            check_founds(seed, state, ref, legal)
        move = mover.choose(state)
        founds = state.founds(move)
        if default_order:
            move = move.with_order(None)
        elif move.order is not None:
            assert sorted(move.order) == list(founds)
        before = set(ref.is_village)
        state.play(move)
        ref.play(move.src, move.dst, None if move.order is None else list(move.order))
        # The reference marks every territory the move cut off, R18 leftovers included.
        assert set(founds) == ref.is_village - before, f"founds({move}): {where(seed, state)}"
        # The huts of the territories the move touched (all of them now and then).
        touched = ALL if state.ply % 8 == 0 else (move.src, move.dst, *founds)
        compare_position(seed, state, ref, touched)
    compare_position(seed, state, ref)
    assert state.end_reason == ref.end_reason(), where(seed, state)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(5))
def test_r8_to_r21_engine_agrees_with_reference_on_random_games(chunk: int) -> None:
    ends: Counter[str] = Counter()
    for seed in range(chunk, GAMES, 5):
        state, ref = play_both(seed, all_founds_below=ENDGAME)
        assert record.result(state) == ref.result(), where(seed, state)
        assert state.end_reason == ref.end_reason()
        assert list(state.scores()) == ref.result()["scores"]
        ends[state.end_reason or ""] += 1
    assert sum(ends.values()) == len(range(chunk, GAMES, 5))


@pytest.mark.parametrize("seed", range(1000, 1000 + FULL_FOUNDS_GAMES))
def test_r10_r11_founds_agree_for_every_legal_move(seed: int) -> None:
    state, ref = play_both(seed, all_founds_below=ENDGAME, all_founds_every=4)
    assert record.result(state) == ref.result(), where(seed, state)


# ------------------------------------------------------------------ random positions

POSITIONS = 210  # random positions with many big groups (R9), played out on both engines


def random_position(seed: int) -> tuple[GameState, ReferenceGame, int]:
    """A random position, not necessarily reachable, rich in groups of 6 to 9 huts (R9,
    equal groups included), with some chips already taken; the same on both engines.

    Returns both games and the number of chips taken before. Isolated groups are villages
    founded earlier (GameState.from_position); the reference is told so by marking them,
    and the chips taken by placeholder villages that the comparison leaves out.
    """
    rng = random.Random(seed)
    num_players = 2 + seed % 3
    clans = rng.sample(CLANS, num_players)
    pool = [c for c in CLANS for _ in range(rng.randint(6, 12))]  # some huts already removed
    rng.shuffle(pool)
    huts: dict[int, Counter[str]] = {}
    for t in rng.sample(range(len(BOARD.territories)), rng.randint(8, 35)):
        size = rng.choice([1, 1, 2, 3, 4, 6, 7, 7, 8, 9])
        group, pool = pool[:size], pool[size:]
        if group:
            huts[t] = Counter(group)
    chips_taken = rng.randint(0, CHART.total_chips - 1)
    state = GameState.from_position(
        BOARD, CHART, NAMES[:num_players], clans, {t: dict(c) for t, c in huts.items()},
        chips_taken=chips_taken,
    )  # fmt: skip
    ref = ReferenceGame(BOARD_DICT, CHART_DICT, num_players, clans, dict.fromkeys(ALL, "red"))
    ref.huts = {t: Counter(huts.get(t, {})) for t in range(len(BOARD.territories))}
    ref.is_village = {
        t for t in huts if not any(ref.huts[u] for u in BOARD.neighbors(t))
    }  # R10: cut off before the position began
    ref.villages = [{"placeholder": True, "huts": {}}] * chips_taken  # chips_taken() counts these
    return state, ref, chips_taken


@pytest.mark.parametrize("chunk", range(3))
def test_r8_r9_r10_r18_random_positions_agree_with_reference(chunk: int) -> None:
    for seed in range(chunk, POSITIONS, 3):
        state, ref, chips_taken = random_position(seed)
        for t in range(len(BOARD.territories)):
            assert state.is_village(t) == (t in ref.is_village), (seed, t)
        play_on(seed, state, ref, seed % 4 == 3, all_founds_below=20)
        expected = ref.result()
        expected["villages"] = expected["villages"][chips_taken:]  # placeholders out
        assert record.result(state) == expected, where(seed, state)


def test_cross_check_covers_every_kind_of_event() -> None:
    """The games above are worth something only if they reach both endings (R18, R19),
    strife (R12.2), hostile villages (R14), big groups (R9) and equal ones moving into each
    other, moves founding two or more villages (R11) and moves founding more villages than
    chips remain (R18)."""
    seen: Counter[str] = Counter()
    games = [
        (seed, deal(BOARD, NAMES[: 2 + seed % 3], random.Random(seed), CHART))
        for seed in range(GAMES)
    ]
    games += [(seed, random_position(seed)[0]) for seed in range(POSITIONS)]
    for seed, state in games:
        mover = RandomMover(seed + 10_000)  # the same moves as play_on
        while not state.is_over:
            move = mover.choose(state)
            founds = state.founds(move)
            seen["multi-village move"] += len(founds) >= 2
            seen["more villages than chips"] += len(founds) > CHART.total_chips - state.chips_taken
            big = [t for t in iter_bits(state.live_mask) if state.hut_total(t) >= 7]
            seen["big group"] += bool(big)
            seen["equal big groups"] += any(
                state.hut_total(t) == state.hut_total(d)
                for t in big
                for d in state.legal_targets(t)
            )
            state.play(move)
        seen[state.end_reason or ""] += 1
        seen["strife"] += sum(1 for v in state.villages if v.lost)
        seen["hostile"] += sum(1 for v in state.villages if v.removed)
    kinds = ["twelfth_village", "no_moves", "strife", "hostile", "big group", "equal big groups"]
    kinds += ["multi-village move", "more villages than chips"]
    assert all(seen[k] for k in kinds), seen
