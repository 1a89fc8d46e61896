"""The game's reading of clans against players who hide, on a small fixed sample: 18
recorded games (12 of 2 players, 6 of 3) between Hard and Normal as the game has them,
hiding their clan, at the budgets the after-game chart's calibration is measured with
(``belief_sweep.py play --levels hard,normal --budget hard=500 normal=150 --seed 32``,
every fifth game of the figures' hiding population: games the reader was not fitted on).
Read by ``scripts/research/hiding_calibration.py`` as the chart reads them: every other
seat and an onlooker, after every move.

The game's reader (belief.MODEL) is under the blind guess's Brier score there and
calibrated; the open reader (OPEN_MODEL), which takes every move at face value, is not
calibrated on them; and the reader the levels hide from (belief.HIDING_AWARE) is fooled,
worse than the blind guess: as every reader is by hiders who model it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clans_pi.bots.belief import HIDING_AWARE, MODEL, OPEN_MODEL
from scripts.research.hiding_calibration import figures, readings

GAMES = Path(__file__).parent / "data" / "hiding_games.jsonl"


def calibration(model) -> dict:
    rows: dict[str, list] = {"seat": [], "onlooker": []}
    for game, line in enumerate(GAMES.read_text(encoding="utf-8").splitlines()):
        for kind, guesses in readings(json.loads(line)["record"], 1, model).items():
            rows[kind] += [(g, (game, *name)) for g, name in guesses]
    return {kind: figures(guesses) for kind, guesses in rows.items()}


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
    assert f["brier"] < f["uniform"] - 0.08
    assert f["ece"] < 0.06


@pytest.mark.parametrize("kind", ["seat", "onlooker"])
def test_an_open_reader_is_less_honest_about_hiders(game_s, kind):
    """Why the sample is worth testing on: the reader that takes every move at face value
    is further from calibrated on it."""
    f = calibration(OPEN_MODEL)[kind]
    assert f["ece"] > game_s[kind]["ece"] + 0.05


@pytest.mark.parametrize("kind", ["seat", "onlooker"])
def test_the_reader_the_levels_hide_from_is_fooled(kind):
    """The levels hide from HIDING_AWARE (search_bot.hidden_from): it is confidently
    wrong about them, which is why the game reads with a reader that models that hiding."""
    f = calibration(HIDING_AWARE)[kind]
    assert f["brier"] > f["uniform"] + 0.1


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
