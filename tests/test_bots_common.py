"""What every computer player level promises (clans_pi/bots, through ``make_bot``): a legal
move with a legal village order on the real game (R8, R9, R11), decided from its own
observation only, so the others' secret clans never change it (R22), reproducible for a
seed whatever it was asked before, a well-formed guess, and a cancel that is honoured.

Small iteration budgets keep the searches fast; no test measures time.
"""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clans_pi.bots import LEVELS, Budget, Cancelled, make_bot
from clans_pi.bots.base import assignments
from clans_pi.bots.random_mover import RandomMover
from clans_pi.rules import record
from clans_pi.rules.constants import CLANS
from clans_pi.rules.setup import deal
from tests.rules_helpers import BOARD, CHART, NAMES, midgame

SMALL = Budget(iterations=40)
SETTINGS = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_make_bot_gives_each_level_and_refuses_others():
    for level in LEVELS:
        assert make_bot(level, BOARD, CHART, seed=1).level == level
    with pytest.raises(ValueError, match="unknown computer level 'expert'"):
        make_bot("expert", BOARD, CHART)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("num_players", [2, 3, 4])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_r8_r9_r11_every_level_plays_only_legal_moves_on_the_real_game(level, num_players, seed):
    """Whole games, every seat but one a bot of ``level`` (one random seat for variety);
    each move is checked by the real game, with its village order (R11)."""
    state = deal(BOARD, NAMES[:num_players], random.Random(seed), CHART)
    bots = [make_bot(level, BOARD, CHART, seed=seed + i, budget=SMALL) for i in range(num_players)]
    mover = RandomMover(seed)
    random_seat = seed % num_players
    while not state.is_over:
        player = state.current_player
        if player == random_seat:
            state.play(mover.choose(state))
            continue
        move = bots[player].choose(state.observation(player))
        assert state.is_legal(move), (level, move)
        # R11: an order exactly when the move founds two or more villages.
        assert (move.order is not None) == (len(state.founds(move)) >= 2), move
        state.play(move)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_r22_the_others_secret_clans_never_change_a_move_or_a_guess(level, num_players):
    """The same public game with other secret clans for the other players: the same
    observation, so the same move and the same guess, for the same seed."""
    state = midgame(10 + num_players, num_players, 14)
    me = state.current_player
    data = record.to_record(state)
    moves, guesses = set(), []
    for clans in assignments(num_players, me, state.clan_of(me))[:6]:
        data["clans"] = list(clans)
        twin = record.replay(data, BOARD, CHART)
        assert twin.clans == tuple(clans)
        obs = twin.observation(me)
        assert obs == state.observation(me)
        bot = make_bot(level, BOARD, CHART, seed=7, budget=SMALL)
        moves.add(bot.choose(obs))
        guesses.append(bot.guess(obs))
    assert len(moves) == 1
    assert all(g == guesses[0] for g in guesses)


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_observation_and_seed_give_the_same_move_whatever_came_before(level):
    state = midgame(3, 3, 12)
    obs = state.observation(state.current_player)
    bot = make_bot(level, BOARD, CHART, seed=42, budget=SMALL)
    move = bot.choose(obs)
    other = midgame(4, 3, 9)
    bot.choose(other.observation(other.current_player))
    bot.guess(other.observation(1))
    assert bot.choose(obs) == move
    assert make_bot(level, BOARD, CHART, seed=42, budget=SMALL).choose(obs) == move


@pytest.mark.parametrize("level", LEVELS)
def test_guess_gives_every_other_player_a_distribution_without_the_own_clan(level):
    state = midgame(8, 3, 0)
    bot = make_bot(level, BOARD, CHART, seed=8, budget=SMALL)
    mover = RandomMover(8)
    while state.ply < 20:
        guess = bot.guess(state.observation(1))
        assert set(guess) == {0, 2}
        for clans in guess.values():
            assert set(clans) == set(CLANS)
            assert sum(clans.values()) == pytest.approx(1.0)
            assert clans[state.clan_of(1)] == 0.0
        state.play(mover.choose(state))


@pytest.mark.parametrize("level", LEVELS)
def test_a_cancel_set_before_the_call_raises_cancelled(level):
    state = midgame(5, 2, 6)
    cancel = threading.Event()
    cancel.set()
    bot = make_bot(level, BOARD, CHART, seed=1, budget=SMALL)
    with pytest.raises(Cancelled):
        bot.choose(state.observation(state.current_player), cancel=cancel)


@pytest.mark.parametrize("level", LEVELS)
def test_it_refuses_observations_it_cannot_move_from(level):
    state = midgame(6, 3, 4)
    bot = make_bot(level, BOARD, CHART, seed=1, budget=SMALL)
    with pytest.raises(ValueError, match="public view"):
        bot.choose(state.observation(None))
    with pytest.raises(ValueError, match="turn"):
        bot.choose(state.observation((state.current_player + 1) % 3))
    over = midgame(6, 3, 999)
    with pytest.raises(ValueError, match="over"):
        bot.choose(over.observation(0))
