"""Calibration is computed right on a constructed case (clans_pi/bots/calibration.py): three
guesses whose Brier scores, reliability bins and top-guess bands are worked out by hand."""

from __future__ import annotations

import math

import pytest

from clans_pi.bots.calibration import (
    Guess,
    brier,
    expected_calibration_error,
    outcomes,
    reliability,
    summarise,
    top_bands,
    uniform_brier,
    wilson,
)

# A sure and right guess, the uniform guess, and a two-way tie with the truth in it.
SURE_RIGHT = Guess({"red": 0.7, "blue": 0.1, "green": 0.1, "yellow": 0.1}, "red")
UNIFORM = Guess({"red": 0.25, "blue": 0.25, "green": 0.25, "yellow": 0.25}, "blue")
TIE = Guess({"red": 0.0, "blue": 0.5, "green": 0.5, "yellow": 0.0}, "green")
CASE = [SURE_RIGHT, UNIFORM, TIE]


def test_the_brier_score_of_each_guess_by_hand():
    # (1 - 0.7)^2 + 3 * 0.1^2 = 0.09 + 0.03
    assert brier(SURE_RIGHT) == pytest.approx(0.12)
    # (1 - 0.25)^2 + 3 * 0.25^2 = 0.5625 + 0.1875: the uniform guess's, whatever is true
    assert brier(UNIFORM) == pytest.approx(0.75) == uniform_brier(4)
    # 0.5^2 + 0.5^2
    assert brier(TIE) == pytest.approx(0.5)
    assert brier(Guess({"red": 1.0, "blue": 0.0}, "red")) == 0.0
    assert brier(Guess({"red": 1.0, "blue": 0.0}, "blue")) == 2.0


def test_the_uniform_guess_s_brier_score():
    assert uniform_brier(4) == 0.75
    assert uniform_brier(2) == 0.5
    assert uniform_brier(1) == 0.0
    for k in range(1, 6):
        probs = {f"c{i}": 1 / k for i in range(k)}
        assert brier(Guess(probs, "c0")) == pytest.approx(uniform_brier(k))


def test_the_summary_by_hand():
    s = summarise(CASE)
    assert s.guesses == 3
    assert s.brier == pytest.approx((0.12 + 0.75 + 0.5) / 3)  # 0.45667
    assert s.uniform == pytest.approx(0.75)
    assert s.skill == pytest.approx(1 - 1.37 / 3 / 0.75)  # 0.39111
    # right, a four-way tie with the truth in it (1/4), a two-way tie (1/2)
    assert s.top_right == pytest.approx((1 + 0.25 + 0.5) / 3)
    assert s.certain == 0
    assert summarise([Guess({"red": 1.0, "blue": 0.0}, "red")]).certain == 1
    empty = summarise([])
    assert empty.guesses == 0 and math.isnan(empty.brier)


def test_the_reliability_table_by_hand():
    pairs = outcomes(CASE)
    assert len(pairs) == 12  # one per possible clan per guess
    table = {round(b.lo, 1): (b.count, b.mean, b.observed) for b in reliability(pairs)}
    assert len(table) == 10
    # 0.0: TIE's two zeros, never right; 0.1: SURE_RIGHT's three 0.1s, never right;
    # 0.2: UNIFORM's four 0.25s, one right; 0.5: TIE's two halves, one right; 0.7: right.
    expected = {0.0: (2, 0.0, 0.0), 0.1: (3, 0.1, 0.0), 0.2: (4, 0.25, 0.25),
                0.5: (2, 0.5, 0.5), 0.7: (1, 0.7, 1.0)}
    for lo, (count, mean, seen) in table.items():
        if lo in expected:
            assert (count, mean, seen) == pytest.approx(expected[lo])
        else:
            assert count == 0 and math.isnan(mean) and math.isnan(seen)
    # |0.1 - 0| * 3 + |0.7 - 1| * 1, over 12 probabilities
    assert expected_calibration_error(pairs) == pytest.approx(0.6 / 12)


def test_a_probability_of_one_falls_in_the_last_bin():
    table = reliability([(1.0, True), (0.95, False), (0.0, False)], bins=10)
    assert (table[-1].count, table[-1].mean, table[-1].observed) == (2, 0.975, 0.5)
    assert table[0].count == 1


def test_the_top_guesses_by_the_reveal_s_words_by_hand():
    below, likely, sure = top_bands(CASE, (0.5, 0.9))
    # UNIFORM's top is 0.25 (right 1 time in 4); SURE_RIGHT's 0.7 (right), TIE's 0.5 (1/2).
    assert (below.count, below.mean, below.observed) == (1, 0.25, 0.25)
    assert (likely.count, likely.mean, likely.observed) == pytest.approx((2, 0.6, 0.75))
    assert sure.count == 0
    (top,) = top_bands([Guess({"red": 1.0, "blue": 0.0}, "blue")], ())
    assert (top.count, top.mean, top.observed) == (1, 1.0, 0.0)


def test_a_guess_over_every_clan_leaves_out_the_bot_s_own():
    probs = {"red": 0.0, "blue": 0.4, "green": 0.3, "yellow": 0.2, "black": 0.1}
    guess = Guess.of(probs, "blue", ruled_out=["red"])
    assert list(guess.probs) == ["blue", "green", "yellow", "black"]
    assert brier(guess) == pytest.approx(0.36 + 0.09 + 0.04 + 0.01)
    with pytest.raises(ValueError, match="true clan 'red' is not one of"):
        Guess.of(probs, "red", ruled_out=["red"])


def test_a_bin_said_more_than_came_true_only_beyond_its_interval_over_its_series():
    """Above the blind guess a bin is over-confident when its mean is above the 95 %
    interval of how often it came true; below, when under it. The interval is over the
    bin's independent series (one reader's readings of one player through a game), not
    over its readings, which come in correlated runs."""
    # 400 readings of 0.9 that came true 80 % of the time: from 400 series, too sure;
    # from 10 series (40 readings each) it may be chance.
    pairs = [(0.9, k % 5 != 0) for k in range(400)]
    (many,) = [b for b in reliability(pairs, series=range(400)) if b.count]
    (few,) = [b for b in reliability(pairs, series=[k % 10 for k in range(400)]) if b.count]
    assert (many.series, few.series) == (400, 10)
    assert many.overconfident(0.25) and not few.overconfident(0.25)
    # Without series every reading counts as one.
    (plain,) = [b for b in reliability(pairs) if b.count]
    assert plain.series == 400 and plain.overconfident(0.25)
    # Below the blind guess: readings of 0.02 for a clan that was the true one 10 % of the
    # time ruled it out too surely; readings of 0.15 for one true 2 % of the time did not.
    low = [(0.02, k % 10 == 0) for k in range(400)]
    (ruled,) = [b for b in reliability(low, series=range(400)) if b.count]
    assert ruled.overconfident(0.25)
    timid = [(0.15, k % 50 == 0) for k in range(400)]
    (unsure,) = [b for b in reliability(timid, series=range(400)) if b.count]
    assert not unsure.overconfident(0.25)
    # Right as often as said: never.
    honest = [(0.7, k % 10 < 7) for k in range(1000)]
    (good,) = [b for b in reliability(honest, series=range(1000)) if b.count]
    assert not good.overconfident(0.25)


def test_the_wilson_interval_by_hand():
    low, high = wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert wilson(0, 0) == (0.0, 1.0)
