"""Hard and Normal weighing how plainly each move shows their clan:
``LevelSettings.hiding``, on by default (Hard 1.0, Normal 0.3).

A constructed decision: the search finds two moves of nearly equal value, one that shows the
mover's clan plainly to every reader (the game's reader, :func:`.belief.exposure`) and one
that does not; the hiding bot picks the second, the plain one the first. And what every bot
must keep: determinism per seed, and R22 (the others' clans never change its move)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import clans_pi.bots.search_bot as search_bot
from clans_pi.bots import Budget
from clans_pi.bots.base import assignments
from clans_pi.bots.belief import (
    KNOWING_HIDERS,
    MODEL,
    OPEN_MODEL,
    BeliefTracker,
    OwnReading,
    move_evidence,
    moves_evidence,
)
from clans_pi.bots.ismcts import Result
from clans_pi.bots.search_bot import LEVEL_SETTINGS, SearchBot, hidden_from
from clans_pi.rules import record
from clans_pi.rules.moves import Move
from tests.rules_helpers import BOARD, CHART, midgame

SMALL = Budget(iterations=60)
HIDING = replace(LEVEL_SETTINGS["hard"], hiding=1.0)
OPEN = replace(LEVEL_SETTINGS["hard"], hiding=0.0)  # Hard as it was before it hid


def hider(seed: int = 7, settings=HIDING) -> SearchBot:
    return SearchBot(BOARD, CHART, level="hard", seed=seed, budget=SMALL, settings=settings)


def reveal_and_hide(state):
    """The legal move after which a reader is surest of the mover's clan, and the one after
    which it is least sure, with both exposures."""
    me = state.current_player
    reading = OwnReading(BOARD, CHART, model=hidden_from())  # the reader the levels hide from
    public = reading.update(state.observation(me))
    assert public.legal_moves() == state.legal_moves()
    shown = reading.exposures(public, state.clan_of(me))
    reveal = max(shown, key=shown.__getitem__)
    hide = min(shown, key=shown.__getitem__)
    return reveal, hide, shown[reveal], shown[hide]


def fake_search(reveal: Move, hide: Move, monkeypatch, gap: float = 0.01):
    """The search finds ``reveal`` a little better (by ``gap``), both well searched."""

    def run_job(job, board, chart, trees, **kwargs):
        visits = {reveal: 100, hide: 100}
        return Result(reveal, 200, visits, values={reveal: 0.50 + gap, hide: 0.50})

    monkeypatch.setattr(search_bot, "run_job", run_job)


@pytest.mark.parametrize("players", [2, 3])
def test_of_two_moves_of_nearly_equal_value_the_hiding_level_picks_the_one_that_hides(
        monkeypatch, players):
    state = midgame(20 + players, players, 4 * players)  # the mover has moved 4 times
    me = state.current_player
    reveal, hide, shown, hidden = reveal_and_hide(state)
    # The one shows the clan more than the other: their difference outweighs 0.01.
    assert shown - hidden > 0.02, (shown, hidden)
    fake_search(reveal, hide, monkeypatch)
    obs = state.observation(me)
    assert hider(settings=OPEN).choose(obs) == reveal  # Hard before it hid
    assert hider().choose(obs) == hide


@pytest.mark.parametrize("level", ["hard", "normal"])
def test_the_levels_of_the_game_hide_hard_more_than_normal(monkeypatch, level):
    # The hiding move is worse by half of what it hides: Hard (weight 1) gives that up,
    # Normal (0.3, more lightly) does not; both give up a hundredth.
    state = midgame(22, 2, 8)
    reveal, hide, shown, hidden = reveal_and_hide(state)
    assert shown - hidden > 0.02, (shown, hidden)
    obs = state.observation(state.current_player)
    fake_search(reveal, hide, monkeypatch)
    assert SearchBot(BOARD, CHART, level=level, seed=3, budget=SMALL).choose(obs) == hide
    fake_search(reveal, hide, monkeypatch, gap=(shown - hidden) / 2)
    chosen = SearchBot(BOARD, CHART, level=level, seed=3, budget=SMALL).choose(obs)
    assert chosen == (hide if level == "hard" else reveal)
    assert LEVEL_SETTINGS["normal"].hiding < LEVEL_SETTINGS["hard"].hiding


@pytest.mark.parametrize("level", ["hard", "normal"])
def test_the_reading_of_the_moves_is_inside_the_move_s_seconds(monkeypatch, level):
    # The reading is worked out before the search, whose deadline then leaves room for it:
    # a slow reading (a fifth of the budget here) shortens the search, not the budget.
    import clans_pi.bots.ismcts as ismcts_module
    from tests.test_bot_search import IterationClock

    clock = IterationClock(0.0001)
    monkeypatch.setattr(ismcts_module, "time", clock)
    monkeypatch.setattr(search_bot, "time", clock.reader)
    seconds = 0.05
    reading = SearchBot.reading

    def slow_reading(self, obs):
        clock.now += seconds / 5
        return reading(self, obs)

    monkeypatch.setattr(SearchBot, "reading", slow_reading)
    state = midgame(7, 3, 9)
    bot = SearchBot(BOARD, CHART, level=level, seed=1, budget=Budget(seconds=seconds))
    start = clock.now
    assert state.is_legal(bot.choose(state.observation(state.current_player)))
    assert clock.now - start <= seconds
    assert bot.last is not None and bot.last.iterations < seconds * 0.8 / clock.step + 2


def test_a_tiny_weight_or_a_poorly_searched_hiding_move_keeps_the_searchs_choice(monkeypatch):
    state = midgame(22, 2, 4)
    reveal, hide, _, _ = reveal_and_hide(state)
    fake_search(reveal, hide, monkeypatch)
    obs = state.observation(state.current_player)
    assert hider(settings=replace(HIDING, hiding=0.001)).choose(obs) == reveal

    def run_job(job, board, chart, trees, **kwargs):  # hide searched 10 times in 110
        return Result(reveal, 110, {reveal: 100, hide: 10},
                      values={reveal: 0.51, hide: 0.50})

    monkeypatch.setattr(search_bot, "run_job", run_job)
    assert hider().choose(obs) == reveal


def test_the_own_reading_is_the_summed_evidence_of_the_own_moves_only():
    state = midgame(5, 3, 9)
    me = state.current_player
    replay = midgame(5, 3, 0)
    row = [0.0] * 5
    for move in state.moves:
        if replay.current_player == me:
            row = [a + b for a, b in zip(row, move_evidence(replay, move), strict=True)]
        replay.play(move)
    reading = OwnReading(BOARD, CHART)
    reading.update(state.observation(me))
    assert reading.row == pytest.approx(row)
    # moves_evidence is move_evidence without the village order's part.
    for move, ratios in list(moves_evidence(state).items())[:5]:
        if len(state.village_orders(move)) <= 1:
            assert ratios == pytest.approx(move_evidence(state, move))


def test_the_same_observation_and_seed_give_the_same_move():
    state = midgame(3, 3, 12)
    obs = state.observation(state.current_player)
    bot = hider(seed=42)
    move = bot.choose(obs)
    other = midgame(4, 3, 9)
    bot.choose(other.observation(other.current_player))
    assert bot.choose(obs) == move
    assert hider(seed=42).choose(obs) == move


AWARE = replace(LEVEL_SETTINGS["hard"], reader=KNOWING_HIDERS)  # another reader than MODEL


def test_a_level_may_read_with_another_reader():
    """LevelSettings.reader: the bot's guesses (and the clans its search imagines) are that
    reader's; without it, the game's reader (belief.MODEL)."""
    assert KNOWING_HIDERS != MODEL
    state = midgame(21, 3, 18)
    obs = state.observation(state.current_player)
    aware = hider(settings=AWARE)
    game_s = hider(settings=LEVEL_SETTINGS["hard"])
    assert aware.guess(obs) == BeliefTracker(BOARD, CHART, model=KNOWING_HIDERS).update(
        obs).marginals()
    assert game_s.guess(obs) == BeliefTracker(BOARD, CHART, model=MODEL).update(
        obs).marginals()
    assert aware.guess(obs) != game_s.guess(obs)
    assert aware.determinisations(obs)[1] == BeliefTracker(
        BOARD, CHART, model=KNOWING_HIDERS).update(obs).probs


@pytest.mark.parametrize("reader", ["game's", "knowing-hiders"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_r22_the_others_secret_clans_never_change_the_hiding_move_or_guess(players, reader):
    """The secrecy property, for the game's reader and one that expects hiders of the next
    step: a hiding bot's move and guesses are the same under any assignment of the others'
    clans."""
    settings = AWARE if reader == "knowing-hiders" else HIDING
    state = midgame(30 + players, players, 16)
    me = state.current_player
    data = record.to_record(state)
    seen = set()
    for clans in assignments(players, me, state.clan_of(me))[:6]:
        data["clans"] = list(clans)
        twin = record.replay(data, BOARD, CHART)
        obs = twin.observation(me)
        assert obs == state.observation(me)
        bot = hider(settings=settings)
        guess = bot.guess(obs)
        seen.add((bot.choose(obs), tuple(sorted((p, tuple(g.items())) for p, g in guess.items()))))
    assert len(seen) == 1


def test_the_levels_hide_from_the_reader_the_game_s_reader_expects_hiders_to_hide_from():
    """The game's reader models a hider as hiding from MODEL.hides_from; the levels hide
    from exactly that reader, so their hiding is what the reader expects (a level that hid
    from the game's reader itself would be a kind of player it does not model)."""
    assert hidden_from() is (MODEL.hides_from or OPEN_MODEL)
    for level in ("hard", "normal"):
        bot = SearchBot(BOARD, CHART, level=level, seed=1, budget=SMALL)
        assert bot._own.model is hidden_from()
