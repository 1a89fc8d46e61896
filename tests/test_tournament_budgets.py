"""scripts/research/tournament.py's budgets named after machines and its levels with their own
budget and workers (``LEVEL[@BUDGET][/WORKERS]``): what a ``pi`` budget is derived from, and a
short tournament on worker processes that runs to its tables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from clans_pi.bots import Budget
from scripts.research import tournament

ROOT = Path(__file__).resolve().parents[1]


def test_a_pi_budget_is_a_core_here_divided_by_the_pi_factor_for_each_worker():
    from clans_pi.bots.search_bot import LEVEL_SETTINGS, NORMAL_ITERATIONS

    hard = round(tournament.HERE["hard"] * 1.0 / tournament.PI_FACTOR)
    assert tournament.named_budget("pi", "hard", 1) == Budget(iterations=hard)
    assert tournament.named_budget("pi", "hard", 3) == Budget(iterations=3 * hard)
    assert tournament.named_budget("desktop", "hard", 1) == Budget(
        iterations=tournament.HERE["hard"])
    # Normal searches its fixed iterations on any machine, shared out over the workers.
    for name in ("pi", "desktop"):
        for workers in (1, 3):
            assert tournament.named_budget(name, "normal", workers) == Budget(
                iterations=NORMAL_ITERATIONS)
    # On the Python path, as the levels were: Normal 0.2 s a move.
    python = round(tournament.HERE_PYTHON["normal"] * 0.2 / tournament.PI_FACTOR)
    assert tournament.named_budget("pi-python", "normal", 1) == Budget(iterations=python)
    assert tournament.named_budget("desktop-python", "hard", 1) == Budget(
        iterations=tournament.HERE_PYTHON["hard"])
    # The think times and iterations are the game's own.
    assert LEVEL_SETTINGS["hard"].budget.seconds == tournament.THINK_SECONDS["hard"]
    assert LEVEL_SETTINGS["normal"].budget.iterations == NORMAL_ITERATIONS


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
        [sys.executable, str(ROOT / "scripts" / "research" / "tournament.py"), "--games", "2",
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
    # Each level's readability as seen by the other.
    assert "readability at the end" in out
    read = [line.split() for line in out.split("readability at the end")[1].splitlines()]
    assert [r[:2] for r in read if r and r[0] in ("hard@40/2", "normal@30")] == [
        ["hard@40/2", "normal@30"], ["hard@40/2", "other"],
        ["normal@30", "hard@40/2"], ["normal@30", "other"]]


@pytest.mark.parametrize(("levels", "hiding", "weights"), [
    (["hard-open", "normal-open"], None, [0.0, 0.0]),  # not hiding: what hiding is measured against
    (["hard", "normal"], None, [1.0, 0.3]),  # the game's levels hide by default
    (["hiding", "hard-open"], 0.5, [0.5, 0.0]),  # --hiding 0.5
    (["hiding", "normal"], None, [1.0, 0.3]),  # the hiding level without --hiding: Hard's
    (["normal", "hard"], {"normal": 0.1}, [0.1, 1.0]),  # --weights normal=0.1
    (["hard-naive", "normal-naive"], None, [1.0, 0.3]),  # as they were, reading openly
])
def test_each_level_plays_with_its_weight_on_being_read_and_every_seat_is_scored(
        monkeypatch, levels, hiding, weights):
    from clans_pi.bots.belief import OPEN_MODEL
    from clans_pi.bots.search_bot import SearchBot

    made, open_readers = [], []
    init = SearchBot.__init__

    def recording_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self.settings.hiding)
        # Reads, and hides, as if everyone played in the open: the naive levels only.
        open_readers.append(self.settings.reader is OPEN_MODEL is self._own.model)

    monkeypatch.setattr(SearchBot, "__init__", recording_init)
    specs = [tournament.parse_spec(f"{level}@20", {}, 1) for level in levels]
    if isinstance(hiding, dict):  # --weights
        specs = tournament.with_weights(specs, None, hiding)
    else:  # --hiding
        specs = tournament.with_weights(specs, hiding, {})
    assert [tournament.weight_of(s) for s in specs] == weights  # as the header prints them
    seats = tournament.play_game((0, 2, specs, 4))
    assert made == weights  # seat order of rotation 0
    assert open_readers == [level in tournament.NAIVE for level in levels]
    assert [s.level for s in seats] == [f"{level}@20" for level in levels]
    # Points (R19) and the margin over the best other player: opposite at 2 players.
    assert seats[0].margin == seats[0].score - seats[1].score == -seats[1].margin
    assert all(s.score > 0 for s in seats)
    winner = max(range(2), key=lambda i: seats[i].score)
    assert seats[winner].share >= 0.5
    # The after-game reading (clans_pi.history.hiding): a probability, never certain.
    for s in seats:
        assert 0.0 < s.read_mean < 1.0 and 0.0 < s.read_end < 1.0


def test_the_points_margins_and_after_game_reading_are_printed_per_level():
    from contextlib import redirect_stdout
    from io import StringIO

    out = StringIO()
    with redirect_stdout(out):
        tournament.report(2, [tournament.parse_spec("hard@20", {}, 1),
                              tournament.parse_spec("normal@20", {}, 1)], [
            [seat_of("hard@20", 50, 8, 0.4, 0.7), seat_of("normal@20", 42, -8, 0.3, 0.2)],
            [seat_of("normal@20", 40, 2, 0.5, 0.9), seat_of("hard@20", 38, -2, 0.2, 0.1)],
        ])
    text = out.getvalue()
    margins = text.split("(margin: ")[1].split("\n\n")[0].splitlines()[1:]
    assert [line.split()[:3] for line in margins] == [["hard@20", "44.0", "3.0"],
                                                      ["normal@20", "41.0", "-3.0"]]
    reading = text.split("(after the game, ")[1].split("\n\n")[0].splitlines()[1:]
    assert [line.split() for line in reading] == [["hard@20", "0.300", "0.400", "0.500"],
                                                  ["normal@20", "0.400", "0.550", "0.500"]]


def seat_of(level: str, score: int, margin: int, read_mean: float, read_end: float):
    r = tournament.SeatResult(level, float(margin > 0), 0.0, 0.0, 1, times=[0.1],
                              iterations=[20], searched=0.1)
    r.score, r.margin, r.read_mean, r.read_end = score, margin, read_mean, read_end
    return r


def test_weights_name_a_search_level_and_a_weight():
    assert tournament.parse_weights(["normal=0.1", "hard=2"]) == {"normal": 0.1, "hard": 2.0}
    for bad in ("easy=1", "normal", "normal=x", "hard=-1"):
        with pytest.raises(SystemExit):
            tournament.parse_weights([bad])


def test_the_header_names_each_seat_s_weight_and_a_stray_hiding_is_refused(capsys):
    specs = tournament.with_weights(
        [tournament.parse_spec(t, {}, 1) for t in ("peeking@20", "normal-open@20", "normal@20",
                                                    "random")], None, {"normal": 0.1})
    assert [tournament.weight_of(s) for s in specs] == [0.0, 0.0, 0.1, None]
    with pytest.raises(SystemExit):
        tournament.main(["--levels", "hard,normal", "--hiding", "0.5", "--games", "1"])
    assert "no seat plays the hiding level" in capsys.readouterr().err
