"""scripts/research/reader_fit.py, the fitting twin of the game's reader: on recorded games
it gives the readings belief.Belief gives (as scripts/research/hiding_calibration.py reads
them) for the game's reader, odds cap included, and its grid prints the fit's loss."""

from __future__ import annotations

from pathlib import Path

import pytest

from clans_pi.bots.belief import EPSILON, MODEL
from scripts.research import reader_fit
from tests.hiding_helpers import HIDING_GAMES, calibration

#: Three recorded games of hiders (2 of 2 players, 1 of 3), the first of each kind.
SAMPLE = (0, 1, 12)

GAME_S = {"epsilon": EPSILON, "beta_open": 1.0, "open": MODEL.open, "hide": MODEL.hide,
          "beta_hide": MODEL.beta_hide, "gamma": MODEL.gamma, "temper": MODEL.temper,
          "temper_hide": MODEL.temper_hide, "sharp": MODEL.sharp,
          "beta_sharp": MODEL.beta_sharp, "temper_sharp": MODEL.temper_sharp,
          "max_odds": MODEL.max_odds, "level": 1}


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    lines = HIDING_GAMES.read_text(encoding="utf-8").splitlines()
    path = tmp_path_factory.mktemp("fit") / "sample.jsonl"
    path.write_text("".join(lines[i] + "\n" for i in SAMPLE), encoding="utf-8")
    return path


def test_it_reads_as_the_game_s_reader_does(sample):
    assert MODEL.hides_from is None and not MODEL.sharp  # what GAME_S describes
    assert MODEL.max_odds < 1e4  # the cap is part of what must agree
    fitted = reader_fit.evaluate(reader_fit.load(str(sample)), GAME_S)
    for kind, game_s in calibration(MODEL, sample).items():
        assert fitted[kind]["readings"] == game_s["readings"]
        assert fitted[kind]["brier"] == pytest.approx(game_s["brier"], abs=1e-3), kind
        assert fitted[kind]["ece"] == pytest.approx(game_s["ece"], abs=1e-3), kind


def test_its_grid_prints_the_loss_and_the_over_confident_bins(sample, capsys):
    reader_fit.main([str(sample), "--open", str(MODEL.open), "--max-odds", "50", "1e4"])
    out = capsys.readouterr().out
    assert out.count("  loss ") == 2
    assert "bins over-confident " in out
