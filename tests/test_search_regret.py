"""scripts/research/search_regret.py: a search configuration judged by a reference search's
values of the moves it chooses. The regret on a constructed case, the configurations it parses, that
its root-parallel stand-in searches as the real worker pool does, and a short run with its
cache of reference searches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clans_pi.bots import Budget
from clans_pi.bots.parallel import SearchPool
from clans_pi.bots.search_bot import LEVEL_SETTINGS, SearchBot
from clans_pi.rules.moves import Move
from scripts.research import search_regret

ROOT = Path(__file__).resolve().parents[1]


def test_regret_is_the_reference_best_value_minus_the_chosen_move_value():
    few = search_regret.MIN_VISITS - 1
    values = {
        Move(1, 2): (500, 0.60),  # the best well-tried move
        Move(3, 4): (100, 0.45),
        Move(5, 6): (40, 0.30),  # the worst well-tried move
        Move(7, 8): (few, 0.90),  # tried too little to trust its high value
        Move(9, 10): (few, 0.10),  # tried too little, but lower still
    }
    assert search_regret.regret(values, Move(1, 2)) == 0.0
    assert search_regret.regret(values, Move(3, 4)) == pytest.approx(0.15)
    assert search_regret.regret(values, Move(7, 8)) == pytest.approx(0.30)
    assert search_regret.regret(values, Move(9, 10)) == pytest.approx(0.50)
    assert search_regret.regret(values, Move(11, 12)) == pytest.approx(0.30)  # never tried
    # A village order (R11) is part of the move: another order is another move.
    ordered = {Move(1, 2, (3, 4)): (500, 0.6), Move(1, 2, (4, 3)): (100, 0.5),
               Move(5, 6): (50, 0.2)}
    assert search_regret.regret(ordered, Move(1, 2, (4, 3))) == pytest.approx(0.1)


def test_a_configuration_names_iterations_trees_and_hard_settings():
    config = search_regret.parse_config("2500/3:w=0.25:c=0.5:order_after=4")
    assert (config.iterations, config.workers) == (2500, 3)
    hard = LEVEL_SETTINGS["hard"].search
    assert (config.settings.search.widening, config.settings.search.exploration,
            config.settings.search.order_after) == (0.25, 0.5, 4)
    assert config.settings.search.ordered == hard.ordered  # the rest is Hard's
    assert config.settings.belief_sampling and not config.settings.reuse
    assert search_regret.parse_config("6000").workers == 1
    for bad, words in (("2500/0", "ITERATIONS[/WORKERS]"), ("many", "ITERATIONS[/WORKERS]"),
                       ("²", "ITERATIONS[/WORKERS]"), ("100:x=1", "unknown setting 'x'"),
                       ("100:w=wide", "not a number"), ("100:w=nan", "not a number"),
                       ("100:c=-1", "not a number of 0 or more")):
        with pytest.raises(SystemExit, match=words.replace("[", r"\[").replace("]", r"\]")):
            search_regret.parse_config(bad)


def test_the_in_process_stand_in_searches_as_the_worker_pool_does(game_views):
    """Same move, same merged visits as two real worker processes at an iteration
    budget: what the script measures is what the table's workers would do."""
    _ply, obs = game_views[1]
    def bot(pool):
        return SearchBot(search_regret.BOARD, search_regret.CHART, level="hard", seed=5,
                         budget=Budget(iterations=600), pool=pool)
    here = bot(search_regret.InProcessPool(2))
    move_here = here.choose(obs)
    with SearchPool(2, search_regret.BOARD, search_regret.CHART) as pool:
        assert pool.ready(60)
        real = bot(pool)
        move_real = real.choose(obs)
    assert move_here == move_real
    assert here.last.result.visits == real.last.result.visits
    assert here.last.iterations == real.last.iterations == 600


@pytest.fixture(scope="module")
def game_views():
    old = search_regret.GAME_ITERATIONS
    search_regret.GAME_ITERATIONS = 40  # quick games; the positions are all that matter
    try:
        return search_regret.game_views((1, 0, 12))
    finally:
        search_regret.GAME_ITERATIONS = old


def test_the_cache_keeps_village_orders_and_tells_positions_apart(game_views):
    values = {Move(1, 2, (3, 4)): (500, 0.6), Move(5, 6): (40, 0.25)}
    text = json.dumps(search_regret._values_to_json(values))
    assert search_regret._values_from_json(json.loads(text)) == values  # R11's order kept
    (_, one), (_, other) = game_views[0], game_views[1]
    assert search_regret.fingerprint(one, 400) == search_regret.fingerprint(one, 400)
    assert search_regret.fingerprint(one, 400) != search_regret.fingerprint(other, 400)
    assert search_regret.fingerprint(one, 400) != search_regret.fingerprint(one, 800)


@pytest.mark.slow
def test_a_short_run_prints_each_configuration_and_reuses_its_cache(tmp_path, capsys,
                                                                     monkeypatch):
    monkeypatch.setattr(search_regret, "GAME_ITERATIONS", 40)
    cache = tmp_path / "reference.jsonl"
    args = ["--games", "1", "--every", "20", "--reference", "400", "--reps", "1",
            "--jobs", "1", "--cache", str(cache), "200", "100/2"]
    search_regret.main(args)
    first = capsys.readouterr().out
    rows = [json.loads(line) for line in cache.read_text().splitlines()]
    assert rows and all(r["key"] and r["values"] for r in rows)
    lines = {line.split()[0]: line.split() for line in first.splitlines()[2:]}
    assert set(lines) == {"200", "100/2"}
    for label, cols in lines.items():
        mean, best, choices = float(cols[1]), float(cols[3]), int(cols[4])
        assert mean >= 0.0 and 0.0 <= best <= 1.0, label
        assert choices == len(rows)  # one choice per position

    def searched_again(*args):
        raise AssertionError("a cached reference was searched again")

    monkeypatch.setattr(search_regret, "reference_values", searched_again)
    search_regret.main(args)  # the references come from the cache: the same figures
    assert capsys.readouterr().out == first
    assert len(cache.read_text().splitlines()) == len(rows)
    with pytest.raises(AssertionError, match="searched again"):  # another game: not cached
        search_regret.main([*args[:-2], "--seed", "2", "200"])
    for bad in ("not json", '{"key": "k", "position": [1, 0, 0], "values": [[1, 2]]}'):
        cache.write_text(bad + "\n")
        with pytest.raises(SystemExit, match=r"reference.jsonl:1: not a reference search"):
            search_regret.main(args)
    with pytest.raises(SystemExit, match="not a file in an existing folder"):
        search_regret.main([*args[:11], str(tmp_path / "no" / "such.jsonl"), "200"])
