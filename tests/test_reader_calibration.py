"""The reading of clans against players who hide, on a small fixed sample: 18 recorded games
(12 of 2 players, 6 of 3) between Hard and Normal, both hiding their clan, at the budgets
the after-game chart's calibration is measured with (``belief_sweep.py play --levels
hard,normal --budget hard=500 normal=150 --seed 202``: games the readers were not fitted
on). Read by ``scripts/research/hiding_calibration.py`` as the chart reads them: every
other seat and an onlooker, after every move.

The reader fitted to expect hiders (belief.HIDING_AWARE) is well under the blind guess's
Brier score there and calibrated; the open reader (OPEN_MODEL) is far worse than the blind
guess, confidently wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clans_pi.bots.belief import HIDING_AWARE, OPEN_MODEL
from scripts.research.hiding_calibration import figures, readings

GAMES = Path(__file__).parent / "data" / "hiding_games.jsonl"


def calibration(model) -> dict:
    rows: dict[str, list] = {"seat": [], "onlooker": []}
    for game, line in enumerate(GAMES.read_text(encoding="utf-8").splitlines()):
        for kind, guesses in readings(json.loads(line)["record"], 1, model).items():
            rows[kind] += [(g, (game, *name)) for g, name in guesses]
    return {kind: figures(guesses) for kind, guesses in rows.items()}


@pytest.fixture(scope="module")
def hiding_aware() -> dict:
    return calibration(HIDING_AWARE)


def test_the_sample_is_the_one_described():
    games = [json.loads(line) for line in GAMES.read_text(encoding="utf-8").splitlines()]
    assert [len(g["levels"]) for g in games] == [2] * 12 + [3] * 6
    assert {level for g in games for level in g["levels"]} == {"hard", "normal"}


@pytest.mark.parametrize("kind", ["seat", "onlooker"])
def test_a_reader_who_expects_hiders_reads_them_better_than_the_blind_guess(hiding_aware, kind):
    f = hiding_aware[kind]
    assert f["brier"] < f["uniform"] - 0.1
    assert f["ece"] < 0.04


@pytest.mark.parametrize("kind", ["seat", "onlooker"])
def test_an_open_reader_is_confidently_wrong_about_hiders(hiding_aware, kind):
    """Why the sample is worth testing on: the reader that takes every move at face value
    does far worse than the blind guess on it."""
    f = calibration(OPEN_MODEL)[kind]
    assert f["brier"] > f["uniform"] + 0.1
    assert f["brier"] > hiding_aware[kind]["brier"] + 0.1
