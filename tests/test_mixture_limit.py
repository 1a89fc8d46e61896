"""Why the game's reader cannot be calibrated on every population of players separately
(scripts/research/mixture_limit.py): even a reader that knows exactly how open and aimless
players move, the exact Bayesian posterior over the clan, is calibrated on the table it
expects (the mix) but not on its parts. Aimless players' clans never show in their moves,
so every reading of them off the blind guess is more confident than it comes true; open
players it reads less surely than it could, hedging against the aimless kind. These are
the two faults the figures' calibration rows show for random movers and open levels."""

from __future__ import annotations

from scripts.research.mixture_limit import CLANS, population

SETTINGS = {"games": 150, "moves": 15, "options": 8, "beta": 1.0, "open_weight": 0.5,
            "seed": 3}


def test_the_exact_reader_is_calibrated_on_the_table_it_expects():
    mix = population("mix", share_open=0.5, **SETTINGS)
    assert mix.brier < mix.uniform - 0.1
    assert mix.ece < 0.03
    assert mix.overconfident == 0


def test_it_is_over_confident_about_aimless_players_and_worse_than_blind():
    aimless = population("aimless", share_open=0.0, **SETTINGS)
    assert aimless.brier > aimless.uniform
    assert aimless.overconfident >= 3
    # Their readings came true as often as the blind guess, whatever they said.
    for b in aimless.table:
        if b.count > 1000:
            assert abs(b.observed - 1.0 / CLANS) < 0.05


def test_it_is_under_confident_about_open_players():
    open_ = population("open", share_open=1.0, **SETTINGS)
    assert open_.brier < open_.uniform - 0.3
    assert open_.ece > 0.03
    assert open_.overconfident == 0
    # Readings of 0.3 to 0.9 came true more often than they said.
    middle = [b for b in open_.table if 0.3 <= b.lo < 0.9 and b.count]
    assert middle and all(b.observed > b.mean for b in middle)
