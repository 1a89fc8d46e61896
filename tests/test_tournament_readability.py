"""scripts/research/tournament.py's readability table: how well each level's clan was
read at the end of the games, by each level that reads, and by the other levels together."""

from __future__ import annotations

from pathlib import Path

import pytest

from clans_pi.bots.calibration import Guess
from scripts.research import tournament

ROOT = Path(__file__).resolve().parents[1]


def seat(level: str, *guesses: tuple[str, dict[str, float], str]) -> tournament.SeatResult:
    r = tournament.SeatResult(level, 0.0, 0.0, 0.0, len(guesses))
    r.guesses = [(read, Guess(probs, truth)) for read, probs, truth in guesses]
    return r


SURE_R = {"r": 0.97, "g": 0.01, "b": 0.01, "y": 0.01}  # sure of r
TIE = {"r": 0.4, "g": 0.4, "b": 0.1, "y": 0.1}  # r and g tied on top


def test_each_reader_and_the_other_levels_together():
    games = [
        # Normal reads Hard right and sure; Hard reads Normal wrong.
        [seat("hard", ("normal", SURE_R, "g")), seat("normal", ("hard", SURE_R, "r"))],
        # Normal's top guess of Hard is a tie that includes the truth: half right.
        [seat("normal", ("hard", TIE, "g")), seat("hard", ("normal", TIE, "b"))],
        # A random mover and a peeking player are no readers.
        [seat("random", ("hard", SURE_R, "r")), seat("peeking", ("hard", SURE_R, "r")),
         seat("hard", ("random", TIE, "y"), ("peeking", TIE, "r"))],
    ]
    rows = {(r.read, r.reader): r for r in tournament.readability(games)}
    normal_on_hard = rows[("hard", "normal")]
    assert (normal_on_hard.guesses, normal_on_hard.right) == (2, 1.5)
    assert normal_on_hard.top_right == pytest.approx(0.75)
    assert normal_on_hard.mean_true == pytest.approx((0.97 + 0.4) / 2)
    assert rows[("hard", tournament.OTHER_LEVELS)] == tournament.Readability(
        "hard", tournament.OTHER_LEVELS, 2, 1.5, 0.97 + 0.4)
    assert ("hard", "random") not in rows and ("hard", "peeking") not in rows
    hard_on_normal = rows[("normal", "hard")]
    assert (hard_on_normal.guesses, hard_on_normal.right) == (2, 0.0)
    assert hard_on_normal.mean_true == pytest.approx((0.01 + 0.1) / 2)
    assert rows[("peeking", "hard")].right == pytest.approx(0.5)
    assert rows[("random", "hard")].mean_true == pytest.approx(0.1)


def test_a_level_reading_itself_is_its_own_row_but_not_among_the_other_levels():
    games = [[seat("hard", ("hard", SURE_R, "r"), ("normal", SURE_R, "r")),
              seat("hard", ("hard", SURE_R, "g"), ("normal", SURE_R, "g")),
              seat("normal", ("hard", SURE_R, "g"), ("hard", SURE_R, "r"))]]
    rows = {(r.read, r.reader): r for r in tournament.readability(games)}
    assert rows[("hard", "hard")].right == 1.0
    assert rows[("hard", "normal")].right == 1.0
    assert rows[("hard", tournament.OTHER_LEVELS)].guesses == 2  # Normal's two only
    assert rows[("hard", tournament.OTHER_LEVELS)].right == 1.0
    # Normal was read by Hard only: its other-levels row is Hard's.
    assert rows[("normal", tournament.OTHER_LEVELS)].right == 1.0
    assert ("normal", "normal") not in rows


def test_the_table_is_printed(capsys):
    games = [[seat("hard", ("normal", SURE_R, "g")), seat("normal", ("hard", SURE_R, "r"))]]
    tournament.report_readability(games)
    out = capsys.readouterr().out
    assert "readability at the end" in out
    row = next(line.split() for line in out.splitlines() if line.startswith("hard ")
               and "normal" in line)
    assert row[:4] == ["hard", "normal", "1", "1.000"]
    assert row[-1] == "0.970"
