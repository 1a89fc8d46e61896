"""The game's reading of clans against players who hide, on a small fixed sample: 18
recorded games (12 of 2 players, 6 of 3) between Hard and Normal as the game has them,
hiding their clan, at the budgets the after-game chart's calibration is measured with
(``belief_sweep.py play --levels hard,normal --budget hard=500 normal=150 --seed 32``,
every fifth game of the figures' hiding population: games the reader was not fitted on).
Read by ``scripts/research/hiding_calibration.py`` as the chart reads them: every other
seat and an onlooker, after every move.

The game's reader (belief.MODEL) is well under the blind guess's Brier score there and
calibrated. The open reader (OPEN_MODEL), which the levels hide from, is confidently wrong
about them; and so is a reader that expects hiders of the next step (KNOWING_HIDERS:
hiders who hide from a reader that expects hiders)."""

from __future__ import annotations

import json

import pytest

from clans_pi.bots.belief import KNOWING_HIDERS, MODEL, OPEN_MODEL
from tests.hiding_helpers import HIDING_GAMES as GAMES
from tests.hiding_helpers import calibration


@pytest.fixture(scope="module")
def game_s() -> dict:
    return calibration(MODEL)


def test_the_sample_is_the_one_described():
    games = [json.loads(line) for line in GAMES.read_text(encoding="utf-8").splitlines()]
    assert [len(g["levels"]) for g in games] == [2] * 12 + [3] * 6
    assert {level for g in games for level in g["levels"]} == {"hard", "normal"}


@pytest.mark.parametrize("kind", ["seat", "onlooker"])
def test_the_game_s_reader_reads_hiders_better_than_the_blind_guess(game_s, kind):
    f = game_s[kind]
    assert f["brier"] < f["uniform"] - 0.1
    assert f["ece"] < 0.04


@pytest.mark.parametrize("model", [OPEN_MODEL, KNOWING_HIDERS], ids=["open", "knowing"])
@pytest.mark.parametrize("kind", ["seat", "onlooker"])
def test_a_reader_that_misjudges_how_they_hide_is_confidently_wrong(model, kind):
    """Why the sample is worth testing on: the reader the levels hide from, and one that
    expects them to hide from a reader that expects hiders, both do far worse than the
    blind guess on it."""
    f = calibration(model)[kind]
    assert f["brier"] > f["uniform"] + 0.1
    assert f["ece"] > 0.1


def test_the_verdicts_the_calibration_reports_are_the_chart_s():
    """hiding_calibration.verdicts reads a game as the after-game chart does: the same
    verdict and line's end for every player (clans_pi.history.hiding), with what the other
    seats' top guesses were."""
    from clans_pi.history.hiding import analyse_record
    from clans_pi.rules.board import load_default_board
    from clans_pi.rules.epochs import load_default_chart
    from scripts.research.hiding_calibration import verdicts

    board, chart = load_default_board(), load_default_chart()
    kinds = set()
    for line in GAMES.read_text(encoding="utf-8").splitlines()[::3]:
        rec = json.loads(line)["record"]
        ours = verdicts(rec)
        chart_s = analyse_record(rec, board, chart).players
        assert [v["verdict"] for v in ours] == [p.verdict.kind for p in chart_s]
        assert [v["end"] for v in ours] == pytest.approx([p.table[-1] for p in chart_s], abs=1e-5)
        for v in ours:
            assert 0.0 <= v["top_right"] <= 1.0 and 0.0 < v["wrong_top"] < 1.0
            kinds.add(v["verdict"])
    assert len(kinds) >= 2  # the sample is not all one verdict
