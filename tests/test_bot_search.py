"""The search players (clans_pi/bots/ismcts.py, search_bot.py): the search's actions are
exactly the legal moves and village orders (R8, R9, R11), its budget in iterations is exact,
a time budget stops it, it can be cancelled from another thread, it picks the village order
and the tactic a position calls for, and it rewards shared wins as shares (R21).

No test here measures time: a seconds budget is checked on a clock that moves on a fixed step
per search iteration.
"""

from __future__ import annotations

import math
import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clans_pi.bots.base import Budget, Cancelled, assignments
from clans_pi.bots.heuristic import clan_values
from clans_pi.bots.ismcts import (
    Settings,
    _Node,
    _rewards,
    actions_with_orders,
    decode,
    search,
    uniform_sampler,
)
from clans_pi.bots.search_bot import LEVEL_SETTINGS, SAFETY, SearchBot
from clans_pi.rules.constants import CLAN_INDEX, CLANS
from clans_pi.rules.moves import Move
from clans_pi.rules.state import GameState
from tests.rules_helpers import BOARD, CHART, NAMES, midgame

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def uniform(state: GameState):
    """A sampler of every assignment player to move cannot rule out (as clan indices)."""
    me = state.current_player
    hyps = assignments(state.num_players, me, state.clan_of(me))
    return uniform_sampler([tuple(CLAN_INDEX[c] for c in h) for h in hyps])


# --------------------------------------------------------------------------- actions


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), num_players=st.integers(2, 4), plies=st.integers(0, 50))
def test_r8_r9_r11_actions_are_the_legal_moves_with_every_village_order(seed, num_players, plies):
    state = midgame(seed, num_players, plies)
    if state.is_over:
        return
    codes, orders = actions_with_orders(state)
    moves = [decode(code, orders) for code in codes]
    expected = [m.with_order(o) for m in state.legal_moves() for o in state.village_orders(m)]
    assert sorted(moves, key=repr) == sorted(expected, key=repr)
    assert len(set(codes)) == len(codes)
    for move in moves:
        assert state.is_legal(move)
        assert (move.order is not None) == (len(state.founds(move)) >= 2)  # R11


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), num_players=st.integers(2, 4), plies=st.integers(0, 55))
def test_r8_r9_r11_a_widening_nodes_random_draws_are_each_legal_child_once(
    seed, num_players, plies
):
    """Nodes under progressive widening draw their children one at a time; drawn until
    none is left they are exactly the legal moves with every village order, each once."""
    state = midgame(seed, num_players, plies)
    if state.is_over:
        return
    node = _Node(state.current_player, state, random.Random(seed), eager=False)
    rand = random.Random(seed).random
    while not node.full and node.draw(state, rand):
        node.n.append(0)  # tried
    codes, _ = actions_with_orders(state)
    assert node.full and sorted(node.actions) == sorted(codes)
    for code in node.actions:
        assert state.is_legal(decode(code, node.orders))


# ---------------------------------------------------------------------------- budget


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("iterations", [1, 37, 250])
def test_an_iteration_budget_is_exact(level, iterations):
    state = midgame(5, 3, 10)
    bot = SearchBot(BOARD, CHART, level=level, seed=1, budget=Budget(iterations=iterations))
    move = bot.choose(state.observation(state.current_player))
    assert state.is_legal(move)
    assert bot.last is not None and bot.last.iterations == iterations
    assert bot.last.result is not None
    # Every iteration goes through exactly one of the searching player's root choices.
    assert sum(bot.last.result.visits.values()) == iterations


def test_a_seconds_budget_ends_the_search():
    state = midgame(6, 2, 4)
    bot = SearchBot(BOARD, CHART, level="normal", seed=1, budget=Budget(seconds=0.05))
    move = bot.choose(state.observation(state.current_player))
    assert state.is_legal(move)
    assert bot.last is not None and bot.last.iterations >= 1


class IterationClock:
    """A stand-in for the time module. The search reads ``monotonic`` once per iteration,
    and each of its readings moves the clock on by ``step`` (the iteration just done);
    :attr:`reader` reads the same clock without moving it (the bot's own bookkeeping). A
    deadline is then reached after a known number of iterations, however fast or loaded
    the machine is."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step
        self.reader = type("Reader", (), {"monotonic": staticmethod(lambda: self.now)})

    def monotonic(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.slow
@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("seconds", [0.01, 0.05, 0.3])
def test_a_seconds_budget_is_kept_by_the_search_s_clock(monkeypatch, level, seconds):
    # The whole move (rebuild, belief, search) within the budget, by the clock the bot
    # reads, and the budget used rather than given up after one iteration.
    import clans_pi.bots.ismcts as ismcts_module
    import clans_pi.bots.search_bot as search_bot_module

    monkeypatch.setenv("CLANS_PI_CORE", "python")  # the Python search reads this clock
    clock = IterationClock(0.0001)  # 10,000 iterations a second, about this machine's
    monkeypatch.setattr(ismcts_module, "time", clock)
    monkeypatch.setattr(search_bot_module, "time", clock.reader)
    state = midgame(7, 3, 9)
    bot = SearchBot(BOARD, CHART, level=level, seed=1, budget=Budget(seconds=seconds))
    start = clock.now
    move = bot.choose(state.observation(state.current_player))
    assert state.is_legal(move)
    assert clock.now - start <= seconds
    assert bot.last is not None and bot.last.seconds == pytest.approx(clock.now - start)
    # It stopped at the first iteration past its deadline (the budget less SAFETY).
    expected = seconds * (1 - SAFETY) / clock.step  # iterations until the deadline
    assert abs(bot.last.iterations - expected) <= 1.5  # (the clock's sums are not exact)


def test_a_single_choice_is_made_without_searching():
    # Two groups side by side; 7 huts cannot move into 1 (R9): 0 -> 1 is the only move.
    huts = {0: {"red": 1}, 1: {"blue": 7}}
    state = GameState.from_position(BOARD, CHART, NAMES[:2], ("red", "blue"), huts)
    codes, _ = actions_with_orders(state)
    assert codes == [0 << 6 | 1]
    result = search(state, uniform(state), random.Random(1), Settings(), iterations=5)
    assert result.move == Move(0, 1) and result.iterations == 5


def weights_for(state: GameState) -> list[list[float]]:
    """Clan probabilities per player as the player to move knows them: its own certain, the
    others uniform over the rest."""
    me = state.current_player
    hyps = assignments(state.num_players, me, state.clan_of(me))
    out = [[0.0] * len(CLANS) for _ in range(state.num_players)]
    for h in hyps:
        for player, clan in enumerate(h):
            out[player][CLAN_INDEX[clan]] += 1 / len(hyps)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ordered_children_start_with_the_heuristics_best_move_for_the_movers_clan(seed):
    state = midgame(seed, 3, 8 + seed)
    me = state.current_player
    result = search(
        state, uniform(state), random.Random(seed), Settings(widening=1.0, ordered=True),
        iterations=1, clan_weights=weights_for(state),
    )
    moves = state.legal_moves()
    mine = [v[CLAN_INDEX[state.clan_of(me)]] for v in clan_values(state, moves)]
    assert result.visits == {result.move: 1}
    assert mine[moves.index(Move(result.move.src, result.move.dst))] == max(mine)


@pytest.mark.parametrize("widening", [0.0, 0.5, 1.0])
def test_progressive_widening_tries_about_sqrt_visits_children(widening):
    state = midgame(4, 2, 2)
    settings_ = Settings(widening=widening, ordered=True)
    result = search(
        state, uniform(state), random.Random(1), settings_, iterations=400,
        clan_weights=weights_for(state),
    )
    tried = len(result.visits)
    if widening:
        # A new child while tried < widening * sqrt(visits + 1): at most that many at 400.
        assert tried == math.ceil(widening * math.sqrt(400))
    else:
        assert tried == min(400, len(actions_with_orders(state)[0]))


@pytest.mark.parametrize("breadth", [1, 2, 3, 4])
def test_a_root_parallel_workers_root_is_as_broad_as_one_tree_with_all_iterations(breadth):
    """root_breadth k: a worker's root widens as if it had k times its visits, so k workers
    of 400 iterations consider the moves one tree of 400 k would (deeper nodes do not)."""
    state = midgame(4, 2, 2)
    settings_ = Settings(widening=0.5, ordered=True, root_breadth=breadth)
    result = search(
        state, uniform(state), random.Random(1), settings_, iterations=400,
        clan_weights=weights_for(state),
    )
    assert len(result.visits) == math.ceil(0.5 * math.sqrt(400 * breadth))


# ------------------------------------------------------------------------- cancelling


def test_a_search_cancelled_from_another_thread_raises_cancelled():
    state = midgame(7, 4, 6)
    obs = state.observation(state.current_player)
    bot = SearchBot(BOARD, CHART, level="hard", seed=3, budget=Budget(seconds=600.0))
    cancel = threading.Event()
    started = threading.Event()
    outcome: list[BaseException | Move] = []

    class Watched(threading.Event):
        """The search's cancel event: reports when the search first looks at it."""

        def is_set(self) -> bool:
            started.set()
            return cancel.is_set()

    def run() -> None:
        try:
            outcome.append(bot.choose(obs, cancel=Watched()))
        except BaseException as exc:  # handed to the test thread
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(60), "the search never checked its cancel event"
    cancel.set()
    thread.join(60)  # generous: promptness is the next iteration, but the machine is shared
    assert not thread.is_alive(), "a cancelled search went on"
    assert len(outcome) == 1 and isinstance(outcome[0], Cancelled)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_search_cancelled_before_it_starts_raises_cancelled(level):
    state = midgame(8, 2, 3)
    cancel = threading.Event()
    cancel.set()
    bot = SearchBot(BOARD, CHART, level=level, seed=1, budget=Budget(iterations=10**9))
    with pytest.raises(Cancelled):
        bot.choose(state.observation(state.current_player), cancel=cancel)


# ---------------------------------------------------------------------- what it plays


def test_r11_it_chooses_the_village_order_that_scores():
    """Territory 0 (grassland) between 1 (steppe) and 2 (mountain), which are not
    neighbours. Both hold 7 huts, so they cannot move into 0 (R9); 0 moves into 1 or 2 and
    founds both (R10). The next chip is the last of epoch I, where mountain is hostile; the
    one after it is epoch II, where mountain is favourable (R14, R15). Red's 7 huts in 2
    score 9 if 2 is founded second, nothing (and leave the board) if first (R11)."""
    huts = {0: {"red": 2}, 1: {"blue": 4, "green": 3}, 2: {"red": 7}}
    state = GameState.from_position(
        BOARD, CHART, NAMES[:2], ("red", "blue"), huts, chips_taken=3
    )
    assert sorted(state.legal_actions()) == [0 << 6 | 1, 0 << 6 | 2]
    for seed in range(3):
        result = search(
            state, uniform(state), random.Random(seed), LEVEL_SETTINGS["hard"].search,
            iterations=200, clan_weights=weights_for(state),
        )
        assert state.is_legal(result.move)
        assert result.move.order == (1, 2), result.visits


def endgame(red_huts: int) -> GameState:
    """Red (player 0, to move) has ``red_huts`` huts in territory 0 (grassland) and 1 in 2
    (mountain), a pair cut off from the rest; 2 -> 0 founds 0 with the last chip of epoch I,
    where grassland is neutral. Four small groups of the other clans elsewhere (41-44)."""
    huts = {
        0: {"red": red_huts}, 2: {"red": 1},
        41: {"blue": 2}, 42: {"green": 1, "yellow": 1}, 43: {"black": 2},
        44: {"blue": 1, "green": 1},
    }  # fmt: skip
    return GameState.from_position(BOARD, CHART, NAMES[:2], ("red", "blue"), huts, chips_taken=3)


def exact_values(state: GameState) -> dict[Move, float]:
    """Red's share of the win after each of its moves, both players playing perfectly,
    averaged over the opponent's possible clans (an exhaustive search of a small endgame)."""

    def value(st: GameState, opponent: str) -> float:
        if st.is_over:
            red = st.clan_points["red"] + st.chips[0]
            other = st.clan_points[opponent] + st.chips[1]
            return 1.0 if red > other else 0.5 if red == other else 0.0
        codes, orders = actions_with_orders(st)
        values = []
        for code in codes:
            st.push(decode(code, orders))
            values.append(value(st, opponent))
            st.pop()
        return max(values) if st.current_player == 0 else min(values)

    out = {}
    codes, orders = actions_with_orders(state)
    for code in codes:
        move = decode(code, orders)
        state.push(move)
        out[move] = sum(value(state, c) for c in ("blue", "green", "yellow", "black")) / 4
        state.pop()
    return out


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_it_founds_a_big_village_of_its_own_clan_before_the_epoch_turns(level):
    """With 8 red huts in 0 (too many to move into 2, R9), 2 -> 0 scores 9 for red now.
    Otherwise the opponent founds a village among 41-44 first, taking the last chip of
    epoch I, and grassland is hostile in epoch II: red's village would score nothing (R14,
    R15, R16). The exhaustive search agrees that only 2 -> 0 wins."""
    state = endgame(8)
    values = exact_values(state)
    assert len(values) >= 10 and values[Move(2, 0)] == 1.0
    assert max(v for m, v in values.items() if m != Move(2, 0)) < 1.0
    budget = 3000 if level == "hard" else 600
    for seed in range(3):
        result = search(
            state, uniform(state), random.Random(seed), LEVEL_SETTINGS[level].search,
            iterations=budget, clan_weights=weights_for(state),
        )
        assert result.move == Move(2, 0), result.visits


def test_it_does_not_grab_a_village_that_loses():
    """With 6 red huts, founding 0 now (7 points and a chip) loses against best play: the
    other clans' groups grow into a bigger village. Moving 41 away keeps a draw (R21). Hard
    finds a move of the best exact value."""
    state = endgame(6)
    values = exact_values(state)
    best = max(values.values())
    assert values[Move(2, 0)] < best
    for seed in range(2):
        result = search(
            state, uniform(state), random.Random(seed), LEVEL_SETTINGS["hard"].search,
            iterations=3000, clan_weights=weights_for(state),
        )
        assert values[result.move] == best, result.visits


# --------------------------------------------------------------------------- rewards


def test_r21_a_shared_win_is_shared_and_the_margin_only_breaks_plateaus():
    huts = {0: {"red": 1}, 1: {"blue": 1}}
    state = GameState.from_position(BOARD, CHART, NAMES[:3], ("red", "blue", "green"), huts)
    state.push(Move(0, 1))  # founds 1: red and blue score 2 each (R12, R14)
    assert state.is_over and state.clan_points["red"] == state.clan_points["blue"] == 2
    red, blue, green, yellow = (CLAN_INDEX[c] for c in ("red", "blue", "green", "yellow"))
    # Player 0 has the chip: 3, 2, 0.
    assert _rewards(state, (red, blue, green), 0.0, 20.0) == [1.0, 0.0, 0.0]
    # Player 1 red, player 0 yellow: 1 + 0, 2, 0 -> player 1 alone.
    assert _rewards(state, (yellow, red, green), 0.0, 20.0) == [0.0, 1.0, 0.0]
    # Player 0 green (0 + 1 chip), players 1 and 2 red and blue: 2 and 2 share the win.
    assert _rewards(state, (green, red, blue), 0.0, 20.0) == [0.0, 0.5, 0.5]
    shaped = _rewards(state, (red, blue, green), 0.1, 20.0)
    assert shaped[0] > 0.9 > shaped[1] > shaped[2] > 0.0
