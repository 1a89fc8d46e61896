"""Property tests (hypothesis) on random legal games of the shipped board and chart.

A game is drawn as a seed and a number of players (2 to 4): :func:`setup.deal` with
``random.Random(seed)``, then :class:`RandomMover` moves, which choose uniformly among legal
moves and village orders (R11); some games leave the order to the engine's default instead.
Each test is named after the rules it checks (RULES.md). The record parser and the board
loader are fuzzed with garbage at the end of the file.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    invariant,
    precondition,
    rule,
)

from clans_pi.bots.random_mover import RandomMover
from clans_pi.rules import record
from clans_pi.rules.board import Board
from clans_pi.rules.constants import CLAN_INDEX, CLANS, HUTS_PER_CLAN
from clans_pi.rules.epochs import HOSTILE
from clans_pi.rules.errors import BoardError, ClansError
from clans_pi.rules.moves import Move
from clans_pi.rules.state import GameState
from tests.rules_helpers import BOARD, CHART, new_game

# Every move and playout here is checked against the compiled core too.
pytestmark = pytest.mark.usefixtures("compiled_twin")

TOTAL_HUTS = HUTS_PER_CLAN * len(CLANS)  # R3: 60
MAX_MOVES = len(BOARD.territories) - 1  # R8: each move empties a territory

SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FEW = settings(SETTINGS, max_examples=40)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=2, max_value=4)


# ---------------------------------------------------------------------------- helpers


def choose(state: GameState, mover: RandomMover, default_order: bool) -> Move:
    """The mover's move; with ``default_order`` the engine picks the order (ascending)."""
    move = mover.choose(state)
    return move.with_order(None) if default_order else move


def moves_of(seed: int, num_players: int, default_order: bool = False) -> Iterator[GameState]:
    """Yield the state (one object) before the first move and after every move of a game."""
    state = new_game(seed, num_players)
    mover = RandomMover(seed + 1)
    yield state
    while not state.is_over:
        state.play(choose(state, mover, default_order))
        yield state


def played(seed: int, num_players: int, plies: int | None = None) -> GameState:
    """A game after ``plies`` moves (or to its end)."""
    state = new_game(seed, num_players)
    mover = RandomMover(seed + 1)
    while not state.is_over and (plies is None or state.ply < plies):
        state.play(mover.choose(state))
    return state


def snapshot(state: GameState) -> dict[str, Any]:
    """Everything a caller can read from a state, as plain data (for equality checks)."""
    territories = range(len(state.board.territories))
    legal = state.legal_moves()
    return {
        "players": state.players,
        "clans": state.clans,
        "ply": state.ply,
        "current_player": state.current_player,
        "end": state.end_reason,
        "moves": state.moves,
        "villages": state.villages,
        "chips_taken": state.chips_taken,
        "epoch": state.epoch,
        "chips": state.chips,
        "clan_points": state.clan_points,
        "scores": state.scores(),
        "winners": state.winners(),
        "huts": [state.hut_counts(t) for t in territories],
        "totals": [state.hut_total(t) for t in territories],
        "is_village": [state.is_village(t) for t in territories],
        "live_mask": state.live_mask,
        "legal_actions": state.legal_actions(),
        "founds": [state.founds(m) for m in legal],
        "huts_removed": state.huts_removed(),
        "result": record.result(state),
        "public_view": state.observation(None).to_dict(),
    }


def tables(state: GameState) -> tuple:
    """A cheaper :func:`snapshot`: the position, the scores and the legal moves."""
    return (
        state.moves,
        state.villages,
        state.end_reason,
        state.chips,
        state.clan_points,
        state.huts_removed(),
        [state.hut_counts(t) for t in range(len(state.board.territories))],
        state.live_mask,
        state.legal_actions(),
    )


def state_players(state: GameState) -> range:
    return range(state.num_players)


def removed_per_clan(state: GameState) -> list[int]:
    """Huts each clan lost so far: strife (R12.2) and hostile villages (R14)."""
    removed = [0] * len(CLANS)
    for v in state.villages:
        for clan in v.lost:
            removed[CLAN_INDEX[clan]] += 1
        if v.effect == HOSTILE:
            for c, n in enumerate(v.huts):
                removed[c] += n
    return removed


def empties(state: GameState) -> set[int]:
    return {t for t in range(len(state.board.territories)) if state.hut_total(t) == 0}


# ---------------------------------------------------------------- rules on every move


@pytest.mark.slow
@SETTINGS
@given(seeds, player_counts, st.booleans())
def test_r3_r12_r14_huts_are_conserved(seed: int, num_players: int, default_order: bool) -> None:
    for state in moves_of(seed, num_players, default_order):
        on_board = sum(state.hut_total(t) for t in range(len(BOARD.territories)))
        assert on_board + state.huts_removed() == TOTAL_HUTS, state.moves
        per_clan = [0] * len(CLANS)
        for t in range(len(BOARD.territories)):
            for c, n in enumerate(state.hut_counts(t)):
                per_clan[c] += n
        removed = removed_per_clan(state)
        assert [a + b for a, b in zip(per_clan, removed, strict=True)] == [HUTS_PER_CLAN] * 5
        assert sum(removed) == state.huts_removed()


@pytest.mark.slow
@SETTINGS
@given(seeds, player_counts)
def test_r8_an_empty_territory_stays_empty(seed: int, num_players: int) -> None:
    empty: set[int] = set()
    for state in moves_of(seed, num_players):
        now = empties(state)
        assert empty <= now, f"territories {sorted(empty - now)} filled again: {state.moves}"
        if state.ply:
            last = state.moves[-1]
            assert last.src in now, "R8: the source gives up all its huts"
            assert last.dst not in now or state.is_village(last.dst)  # hostile village (R14)
        for m in state.legal_moves():
            assert m.src not in now and m.dst not in now
        empty = now


@SETTINGS
@given(seeds, player_counts, st.booleans())
def test_r10_r13_villages_never_change_after_founding(
    seed: int, num_players: int, default_order: bool
) -> None:
    seen: dict[int, tuple[Any, tuple[int, ...]]] = {}
    villages: tuple = ()
    for state in moves_of(seed, num_players, default_order):
        assert state.villages[: len(villages)] == villages, "founded villages were rewritten"
        villages = state.villages
        for v in villages:
            seen.setdefault(v.territory, (v, state.hut_counts(v.territory)))
        assert len(seen) == len(villages), "a territory was founded twice"
        in_play = {t for m in state.legal_moves() for t in (m.src, m.dst)}
        for t, (_village, huts) in seen.items():
            assert state.hut_counts(t) == huts, f"village {t} changed: {state.moves}"
            assert state.is_village(t)
            assert t not in in_play, f"R13: village {t} can move or be moved into"
            assert all(state.hut_total(u) == 0 for u in BOARD.neighbors(t)), "R10"
        by_territory = {v.territory: v for v in villages}
        assert all(by_territory[t] == village for t, (village, _) in seen.items())


@SETTINGS
@given(seeds, player_counts)
def test_r8_r18_r19_game_ends_within_59_moves(seed: int, num_players: int) -> None:
    before = -1
    for state in moves_of(seed, num_players):
        now = len(empties(state))
        assert now > before, "R8: every move empties a territory"
        before = now
        assert state.ply <= MAX_MOVES
        if not state.is_over:
            assert state.legal_moves(), "R19: a game that is not over has a move"
    assert state.is_over and state.ply <= MAX_MOVES
    assert state.legal_moves() == [] and state.legal_actions() == []
    if state.end_reason == "twelfth_village":  # R18
        assert state.chips_taken == CHART.total_chips
    else:  # R19
        assert state.end_reason == "no_moves" and state.chips_taken < CHART.total_chips
    assert state.winners(), "R21: somebody wins"


@SETTINGS
@given(seeds, player_counts)
def test_r12_r14_r20_clan_points_and_chips_never_decrease(seed: int, num_players: int) -> None:
    points = dict.fromkeys(CLANS, 0)
    chips = (0,) * num_players
    for state in moves_of(seed, num_players):
        now = state.clan_points
        assert all(now[c] >= points[c] for c in CLANS), (points, now)
        assert all(a >= b for a, b in zip(state.chips, chips, strict=True))
        assert sum(state.chips) == state.chips_taken == len(state.villages)  # R12.1
        points, chips = now, state.chips
        gained = dict.fromkeys(CLANS, 0)  # R12.3: every clan present gets the full value
        for v in state.villages:
            for clan in v.huts_by_clan():
                gained[clan] += v.value
        assert gained == now


@SETTINGS
@given(seeds, player_counts, st.booleans())
def test_check_invariants_after_every_move(
    seed: int, num_players: int, default_order: bool
) -> None:
    for state in moves_of(seed, num_players, default_order):
        state.check_invariants()


# ---------------------------------------------------------------- records and saves


@FEW
@given(seeds, player_counts, st.integers(min_value=0, max_value=MAX_MOVES))
def test_record_replay_gives_the_same_state(seed: int, num_players: int, plies: int) -> None:
    state = played(seed, num_players, plies)
    for _ in range(2):  # mid-game, then at the end
        data = record.to_record(state)
        again = record.replay(json.loads(json.dumps(data)), BOARD, CHART)
        assert record.result(again) == record.result(state)
        assert again.legal_moves() == state.legal_moves()
        for viewer in (None, *state_players(state)):
            assert again.observation(viewer).to_dict() == state.observation(viewer).to_dict()
        assert snapshot(again) == snapshot(state)
        assert record.to_record(again) == data
        RandomMover(seed).play_game(state)


@FEW
@given(seeds, player_counts, st.integers(min_value=0, max_value=MAX_MOVES))
def test_json_save_round_trips(seed: int, num_players: int, plies: int) -> None:
    state = played(seed, num_players, plies)
    for _ in range(2):  # mid-game, then at the end
        saved = record.to_json(state)
        loaded = record.from_json(json.loads(json.dumps(saved)), BOARD)
        assert snapshot(loaded) == snapshot(state)
        assert record.to_json(loaded) == saved
        RandomMover(seed).play_game(state)


# ---------------------------------------------------------------------------- secrecy


def _without_viewer(obs: Any) -> Any:
    return dataclasses.replace(obs, viewer=None, own_clan=None)


@pytest.mark.slow
@settings(SETTINGS, max_examples=25)
@given(seeds, player_counts, st.integers(min_value=1, max_value=4))
def test_r20_r22_observations_never_reveal_another_players_clan(
    seed: int, num_players: int, shift: int
) -> None:
    """The same deal and moves with other secret clans must look the same to everybody but
    the clan's owner (nothing public depends on a secret), until the end (R20)."""
    state = new_game(seed, num_players)
    other_clans = [CLANS[(CLAN_INDEX[c] + shift) % len(CLANS)] for c in state.clans]
    huts = [CLANS[c] for c in state.initial_huts]
    twin = GameState(BOARD, CHART, state.players, other_clans, huts)
    mover = RandomMover(seed + 1)
    while True:
        public = state.observation(None)
        assert public.viewer is None and public.own_clan is None
        views = [state.observation(i) for i in state_players(state)]
        for i, view in enumerate(views):
            assert view.viewer == i and view.own_clan == state.clan_of(i)
            text = json.dumps(view.to_dict())  # a seat device gets this
            assert json.loads(text)["own_clan"] == state.clan_of(i)
        if state.is_over:
            break
        assert public.revealed_clans is None and public.scores is None
        assert all(_without_viewer(view) == public for view in views)
        twin_public = twin.observation(None)
        assert twin_public.to_dict() == public.to_dict()
        for i, clan in enumerate(other_clans):
            view = twin.observation(i)
            assert view.own_clan == clan and _without_viewer(view) == twin_public
        move = mover.choose(state)
        state.play(move)
        twin.play(move)
    # R20: at the end every clan and score is revealed, to everybody.
    for view in (public, *views):
        assert view.revealed_clans == state.clans
        assert view.scores == state.scores()
        assert view.winners == state.winners()


# --------------------------------------------------------------- undo, copy, playout


@SETTINGS
@given(
    seeds,
    player_counts,
    st.integers(min_value=0, max_value=45),
    st.integers(min_value=1, max_value=20),
    st.data(),
)
@pytest.mark.slow
def test_undo_pop_returns_to_an_identical_state(
    seed: int, num_players: int, start: int, k: int, data: st.DataObject
) -> None:
    state = played(seed, num_players, start)
    before = snapshot(state)
    kept = state.copy()
    rng = random.Random(seed)
    pushed: list[Move] = []
    while len(pushed) < k and not state.is_over:
        move = RandomMover(rng=rng).choose(state)
        how = data.draw(st.sampled_from(["play", "push", "push_action"]))
        if how == "play":
            state.play(move)
        elif how == "push":
            state.push(move)
        else:
            state.push_action(move.action, move.order)
        state.check_invariants()
        pushed.append(move)
    after = snapshot(state)
    twin = state.copy()  # shares the undo snapshots with ``state``
    for move in reversed(pushed):
        undone = state.pop()
        assert (undone.src, undone.dst) == (move.src, move.dst)
        if move.order is not None:
            assert undone.order == move.order
        state.check_invariants()
    assert snapshot(state) == before
    assert snapshot(kept) == before, "a copy changed when the original moved"
    # Tables given back by pop may be shared with a copy's undo snapshots: going on from
    # here, in place (playout, push without undo) or not, must leave the copy's alone.
    if data.draw(st.booleans()):
        state.playout(random.Random(seed).random)
        assert state.is_over
    else:
        for move in pushed:
            state.play(move)
        assert snapshot(state) == after
    assert snapshot(twin) == after
    for _ in pushed:
        twin.pop()
    assert snapshot(twin) == before, "undo snapshots changed under a copy"
    for move in pushed:
        twin.push(move, undo=False)
        kept.play(move)
    assert snapshot(twin) == after
    assert snapshot(kept) == after


@FEW
@given(seeds, player_counts, st.integers(min_value=0, max_value=MAX_MOVES))
def test_r8_r18_r19_playout_ends_in_a_legal_finished_game(
    seed: int, num_players: int, start: int
) -> None:
    state = played(seed, num_players, start)
    kept = snapshot(state)
    copied = state.copy()
    copied.playout(random.Random(seed).random)
    assert snapshot(state) == kept, "playout on a copy changed the original"
    assert copied.is_over and copied.ply <= MAX_MOVES
    copied.check_invariants()
    again = record.replay(record.to_record(copied), BOARD, CHART)  # checks every move
    assert snapshot(again) == snapshot(copied)
    state.playout(random.Random(seed).random)
    assert snapshot(state) == snapshot(copied), "playout is not deterministic for a seed"


class UndoCopyMachine(RuleBasedStateMachine):
    """Interleave moves, undo, copies and playouts on several states; each must always
    equal the game replayed from scratch through the checked path (no shared tables)."""

    states = Bundle("states")

    def __init__(self) -> None:
        super().__init__()
        self.depth: dict[int, int] = {}  # undo stack depth per state (by id)
        self.alive: list[GameState] = []  # every state made, newest last
        self.games = 0  # games dealt: few, so that most states are copies of each other
        self.in_bundle = 0  # states not consumed by a playout

    @precondition(lambda self: self.games < 2 or not self.in_bundle)
    @rule(target=states, seed=seeds, num_players=player_counts)
    def start(self, seed: int, num_players: int) -> GameState:
        self.games += 1
        return self._track(new_game(seed, num_players), 0)

    def _track(self, state: GameState, depth: int) -> GameState:
        self.depth[id(state)] = depth
        self.alive.append(state)
        self.in_bundle += 1
        return state

    @rule(state=states, pick=st.randoms(use_true_random=False), how=st.integers(0, 3))
    def move(self, state: GameState, pick: random.Random, how: int) -> None:
        if state.is_over:
            return
        move = RandomMover(rng=pick).choose(state)
        if how == 0:
            state.play(move)
        elif how == 1:
            state.push(move)
        elif how == 2:
            state.push_action(move.action, move.order)
        else:
            state.push(move, undo=False)
            self.depth[id(state)] = -1
        self.depth[id(state)] += 1
        self._check(state)

    @rule(state=states)
    def pop(self, state: GameState) -> None:
        if self.depth[id(state)] > 0:
            state.pop()
            self.depth[id(state)] -= 1
        else:  # nothing to undo: never made a move, or forgot them (undo=False, playout)
            with pytest.raises(IndexError):
                state.pop()
        self._check(state)

    @rule(state=states, pick=st.randoms(use_true_random=False), k=st.integers(1, 3))
    def rewind_then_move_in_place(self, state: GameState, pick: random.Random, k: int) -> None:
        """Undo up to k moves, then move without undo: the tables pop gave back may be in a
        copy's undo snapshots, and moving in place must not write into them."""
        for _ in range(min(k, self.depth[id(state)])):
            state.pop()
        self.depth[id(state)] = 0
        if not state.is_over:
            state.push(RandomMover(rng=pick).choose(state), undo=False)
        self._check(state)

    @rule(target=states, state=states, stack=st.booleans())
    def copy(self, state: GameState, stack: bool) -> GameState:
        new = self._track(state.copy(stack=stack), self.depth[id(state)] if stack else 0)
        self._check(new)
        return new

    @rule(state=consumes(states), seed=seeds)
    def playout(self, state: GameState, seed: int) -> None:
        state.playout(random.Random(seed).random)
        self.depth[id(state)] = 0
        self.in_bundle -= 1
        assert state.is_over
        self._check(state)

    @precondition(lambda self: bool(self.alive))
    @invariant()
    def all_states_match_their_replay(self) -> None:
        for state in self.alive[-4:]:
            self._check(state)

    def _check(self, state: GameState) -> None:
        state.check_invariants()
        fresh = record.replay(record.to_record(state), BOARD, CHART)
        assert tables(state) == tables(fresh)


UndoCopyMachine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_undo_copy_and_playout_never_share_tables = UndoCopyMachine.TestCase


# ---------------------------------------------------------------------------- fuzzing

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.integers(min_value=-2, max_value=64)
    | st.floats()
    | st.text(max_size=6)
    | st.sampled_from([*CLANS, "forest", "steppe", "clans-record/1", "clans-state/1", "0"])
)
json_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)
# Values of the wrong type for any field: the most likely mistakes in a hand-edited file.
wrong_types = st.sampled_from([None, True, 0, -1, 2**64, 1.5, "", "x", [], {}, [[]], {"0": []}])
random_moves = st.lists(
    st.fixed_dictionaries(
        {"from": st.integers(-1, 61), "to": st.integers(-1, 61)},
        optional={"order": st.lists(st.integers(-1, 61), max_size=4) | json_values},
    ),
    max_size=4,
)


def mutate(data: st.DataObject, value: Any, times: int) -> Any:
    """Return a copy of ``value`` with ``times`` random changes somewhere inside it: a key
    or item deleted, a value replaced by random JSON, or a list shuffled or cut. Only the
    containers on the changed paths are copied; ``value`` itself is never changed."""
    value = copy.copy(value)
    for _ in range(times):
        parent: Any = None
        key: Any = None
        node = value
        # Walk down a random path, stopping at each level below the top with probability 1/4.
        while (
            isinstance(node, dict | list)
            and node
            and (parent is None or data.draw(st.integers(0, 3)))
        ):
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            key = data.draw(st.sampled_from(keys))
            child = node[key]
            if isinstance(child, dict | list):
                child = node[key] = copy.copy(child)
            parent, node = node, child
        if parent is None:
            continue
        op = data.draw(st.sampled_from(["delete", "replace", "replace", "shuffle", "cut"]))
        if op == "delete":
            del parent[key]
        elif op == "replace":
            parent[key] = data.draw(wrong_types | json_values)
        elif isinstance(node, list) and node:
            if op == "shuffle":
                parent[key] = data.draw(st.permutations(node))
            else:
                parent[key] = node[: data.draw(st.integers(0, len(node) - 1))]
    return value


def assert_clans_error_or_valid(load: Any, data: Any) -> GameState | None:
    try:
        state = load(data)
    except ClansError:
        return None
    # Anything accepted must be a real game that writes back to an equal record.
    state.check_invariants()
    again = record.replay(record.to_record(state), state.board, state.chart)
    assert snapshot(again) == snapshot(state)
    return state


@pytest.mark.slow
@settings(SETTINGS, max_examples=150)
@given(json_values)
def test_record_replay_of_random_json_raises_only_clans_errors(garbage: Any) -> None:
    assert_clans_error_or_valid(lambda d: record.replay(d, BOARD, CHART), garbage)
    assert_clans_error_or_valid(lambda d: record.from_json(d, BOARD), garbage)


@settings(SETTINGS, max_examples=150)
@given(seeds, player_counts, st.integers(0, MAX_MOVES), st.integers(1, 3), st.data())
def test_record_replay_of_mutated_records_raises_only_clans_errors(
    seed: int, num_players: int, plies: int, times: int, data: st.DataObject
) -> None:
    good = record.to_record(played(seed, num_players, plies))
    bad = mutate(data, good, times)
    if data.draw(st.booleans()):
        bad = dict(bad) if isinstance(bad, dict) else {}
        moves = bad.get("moves") if isinstance(bad.get("moves"), list) else []
        cut = data.draw(st.integers(0, len(moves)))
        bad["moves"] = moves[:cut] + data.draw(random_moves)
    assert_clans_error_or_valid(lambda d: record.replay(d, BOARD, CHART), bad)


@pytest.mark.slow
@settings(SETTINGS, max_examples=100)
@given(seeds, player_counts, st.integers(0, MAX_MOVES), st.integers(1, 3), st.data())
def test_from_json_of_mutated_saves_raises_only_clans_errors(
    seed: int, num_players: int, plies: int, times: int, data: st.DataObject
) -> None:
    good = record.to_json(played(seed, num_players, plies))
    bad = mutate(data, good, times)
    assert_clans_error_or_valid(lambda d: record.from_json(d, BOARD), bad)


BOARD_DICT = BOARD.to_dict()


@pytest.mark.slow
@settings(SETTINGS, max_examples=150)
@given(st.integers(1, 3), st.data())
def test_r1_r2_board_from_mutated_dict_raises_only_board_errors(
    times: int, data: st.DataObject
) -> None:
    bad = mutate(data, BOARD_DICT, times)
    try:
        board = Board.from_dict(bad)
    except BoardError:
        return
    assert Board.from_dict(board.to_dict()).to_dict() == board.to_dict()


def _set(path: tuple, value: Any) -> Any:
    """A change at ``path`` (keys and indices) for :func:`test_inputs_that_once_crashed`."""

    def change(data: Any) -> Any:
        data = copy.deepcopy(data)
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return data

    return change


GOOD_RECORD = record.to_record(played(7, 3))
GOOD_SAVE = record.to_json(played(8, 2, 10))


@pytest.mark.parametrize(
    ("load", "base", "change"),
    [
        ("record", GOOD_RECORD, _set(("clans", 0), [])),  # unhashable clan (was a TypeError)
        ("record", GOOD_RECORD, _set(("huts", "0"), {})),
        ("record", GOOD_RECORD, _set(("players", 1), ["Bob"])),
        ("record", GOOD_RECORD, _set(("moves", 0, "order"), {"a": 1})),
        ("save", GOOD_SAVE, _set(("chart", "epochs", 0, "hostile"), [[]])),
        ("save", GOOD_SAVE, _set(("chart", "epochs"), {"0": []})),
        ("board", BOARD_DICT, _set(("lakes",), 5)),  # not iterable (was a TypeError)
        ("board", BOARD_DICT, _set(("rivers",), None)),
        ("board", BOARD_DICT, _set(("territories", 0, "terrain"), [])),
        ("board", BOARD_DICT, _set(("territories", 0, "region"), [])),
    ],
)
def test_inputs_that_once_crashed_raise_clans_errors(load: str, base: Any, change: Any) -> None:
    bad = change(base)
    with pytest.raises(ClansError):
        if load == "record":
            record.replay(bad, BOARD, CHART)
        elif load == "save":
            record.from_json(bad, BOARD)
        else:
            Board.from_dict(bad)
