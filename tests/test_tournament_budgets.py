"""scripts/tournament.py's budgets named after machines and its levels with their own budget
and workers (``LEVEL[@BUDGET][/WORKERS]``): what a ``pi`` budget is derived from, and a
short tournament on worker processes that runs to its tables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from clans_pi.bots import Budget

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import tournament  # noqa: E402


def test_a_pi_budget_is_a_core_here_divided_by_the_pi_factor_for_each_worker():
    hard = round(tournament.HERE["hard"] * 1.0 / tournament.PI_FACTOR)
    normal = round(tournament.HERE["normal"] * 0.2 / tournament.PI_FACTOR)
    assert tournament.named_budget("pi", "hard", 1) == Budget(iterations=hard)
    assert tournament.named_budget("pi", "hard", 3) == Budget(iterations=3 * hard)
    assert tournament.named_budget("pi", "normal", 1) == Budget(iterations=normal)
    assert tournament.named_budget("desktop", "hard", 1) == Budget(
        iterations=tournament.HERE["hard"])
    # The think times are the game's own.
    from clans_pi.bots.search_bot import LEVEL_SETTINGS

    for level, seconds in tournament.THINK_SECONDS.items():
        assert LEVEL_SETTINGS[level].budget.seconds == seconds


def test_a_level_may_carry_its_own_budget_and_workers():
    budgets = tournament.parse_budgets(["pi", "normal=300"])
    spec = tournament.parse_spec("hard@desktop/3", budgets, 1)
    assert (spec.level, spec.workers) == ("hard", 3)
    assert spec.budget == tournament.named_budget("desktop", "hard", 3)
    assert tournament.parse_spec("hard", budgets, 2).budget == \
        tournament.named_budget("pi", "hard", 2)  # the bare --budget pi
    assert tournament.parse_spec("normal", budgets, 2).budget == Budget(iterations=300)
    assert tournament.parse_spec("hard@0.5s", {}, 1).budget == Budget(seconds=0.5)
    peeking = tournament.parse_spec("peeking@pi/3", budgets, 1)  # searches as Hard does
    assert peeking.budget == tournament.named_budget("pi", "hard", 3)
    random_ = tournament.parse_spec("random/4", budgets, 2)
    assert (random_.budget, random_.workers) == (None, 1)  # it does not search
    for bad in ("hard@fast", "hard/0", "hard/x", "wizard", "peeker@pi"):
        with pytest.raises(SystemExit):
            tournament.parse_spec(bad, {}, 1)


def test_a_short_tournament_on_two_workers_prints_its_tables():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "tournament.py"), "--games", "2",
         "--players", "2", "--levels", "hard@40/2,normal@30", "--seed", "3"],
        capture_output=True, text=True, check=False, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "budgets: hard@40/2 40 iterations on 2 workers, normal@30 30 iterations" in out
    tables = out.split("calibration of the guesses")[0]  # win rate, guesses, move time
    rows = [line.split() for line in tables.splitlines()
            if line.startswith(("hard@40/2 ", "normal@30 "))]
    wins = {r[0]: float(r[2]) for r in rows[:2]}
    assert wins.keys() == {"hard@40/2", "normal@30"}
    assert abs(sum(wins.values()) - 1.0) < 1e-9  # every game won by someone (2 players)
    iters = {r[0]: r[5] for r in rows if len(r) == 7}
    assert iters == {"hard@40/2": "40", "normal@30": "30"}
    # Each level's readability as seen by the other (issue 33).
    assert "readability at the end" in out
    read = [line.split() for line in out.split("readability at the end")[1].splitlines()]
    assert [r[:2] for r in read if r and r[0] in ("hard@40/2", "normal@30")] == [
        ["hard@40/2", "normal@30"], ["hard@40/2", "other"],
        ["normal@30", "hard@40/2"], ["normal@30", "other"]]
