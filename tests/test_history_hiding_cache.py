"""The readings of how well each player hid, worked out once per game on a
background thread and kept beside the past games' index: derived, found by the game
itself, dropped when the model changes, never trusted when damaged."""

from __future__ import annotations

import json

import pytest

from clans_pi.cli import main
from clans_pi.history import hiding_cache
from clans_pi.history.hiding import analyse_record
from clans_pi.history.hiding_cache import CACHE_NAME, HidingCache, game_digest
from tests.hiding_helpers import BOARD, CHART, plain_game, plain_record
from tests.history_helpers import write_record


def _read(cache: HidingCache, record):
    reading = cache.reading(record)
    assert reading.wait(60)
    return reading


def _no_analysis(monkeypatch):
    def refuse(*_a, **_k):
        raise AssertionError("read again instead of kept")
    monkeypatch.setattr(hiding_cache, "analyse_record", refuse)


def test_a_reading_is_worked_out_once_and_kept_beside_the_index(tmp_path, monkeypatch):
    record = plain_record(1)
    reading = _read(HidingCache(tmp_path, BOARD, CHART), record)
    assert reading.error is None and reading.progress == 1.0
    fresh = analyse_record(record, BOARD, CHART)
    assert reading.result.to_json() == fresh.to_json()
    assert (tmp_path / CACHE_NAME).is_file()
    _no_analysis(monkeypatch)
    again = HidingCache(tmp_path, BOARD, CHART)
    again.load()  # at start, on the past games' thread
    assert again.reading(record).done  # at once: the screen needs no ring once kept...
    kept = _read(again, record).result
    assert kept.to_json() == fresh.to_json()  # ...and the same figures


def test_the_computers_guesses_added_later_are_the_records_own(tmp_path, monkeypatch):
    record = plain_record(2)
    _read(HidingCache(tmp_path, BOARD, CHART), record)
    later = {**record, "table": {"ended": "2026-11-25T20:00:00+00:00"},
             "guesses": [{"by": 1, "of": 0, "clan": plain_game(2).clan_of(0), "weight": 0.8}]}
    assert game_digest(later) == game_digest(record)
    _no_analysis(monkeypatch)
    kept = HidingCache(tmp_path, BOARD, CHART).cached(later)
    assert kept is not None and kept.guesses == ((1, 0, plain_game(2).clan_of(0), 0.8),)


def test_another_model_or_a_damaged_file_is_not_used(tmp_path, monkeypatch):
    record = plain_record(0)
    _read(HidingCache(tmp_path, BOARD, CHART), record)
    path = tmp_path / CACHE_NAME
    doc = json.loads(path.read_text())
    doc["key"]["model"] = "another"
    path.write_text(json.dumps(doc))
    assert HidingCache(tmp_path, BOARD, CHART).cached(record) is None
    path.write_text('{"key": ')
    assert HidingCache(tmp_path, BOARD, CHART).cached(record) is None
    doc = json.loads(json.dumps({"key": HidingCache(tmp_path, BOARD, CHART)._key(),
                                 "games": {game_digest(record): {"total": "x"}}}))
    path.write_text(json.dumps(doc))
    reading = _read(HidingCache(tmp_path, BOARD, CHART), record)  # read again, kept again
    assert reading.result is not None
    assert HidingCache(tmp_path, BOARD, CHART).cached(record) is not None


def test_a_damaged_record_has_a_one_line_error(tmp_path):
    record = plain_record(0)
    record["moves"][6] = {"from": 0, "to": 0}
    reading = _read(HidingCache(tmp_path, BOARD, CHART), record)
    assert reading.result is None and reading.error.startswith("move 7:")
    assert "\n" not in reading.error
    assert _read(HidingCache(tmp_path, BOARD, CHART), ["nonsense"]).error


def test_only_the_newest_readings_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(hiding_cache, "KEEP", 2)
    cache = HidingCache(tmp_path, BOARD, CHART)
    records = [plain_record(s) for s in (0, 1, 2)]
    for r in records:
        _read(cache, r)
    fresh = HidingCache(tmp_path, BOARD, CHART)
    assert [fresh.cached(r) is not None for r in records] == [False, True, True]


def test_no_state_directory_keeps_nothing_and_still_reads(tmp_path):
    reading = _read(HidingCache(tmp_path / "none", BOARD, CHART), plain_record(0))
    assert reading.result is not None and not (tmp_path / "none").exists()


def test_the_command_line_uses_and_fills_the_same_cache(tmp_path, capsys, monkeypatch):
    write_record(tmp_path / "records", plain_record(1), "g.json")
    assert main(["history", "--state-dir", str(tmp_path), "--analysis", "g.json",
                 "--json"]) == 0
    first = capsys.readouterr().out
    assert (tmp_path / CACHE_NAME).is_file()
    _no_analysis(monkeypatch)
    assert main(["history", "--state-dir", str(tmp_path), "--analysis", "g.json",
                 "--json"]) == 0
    assert capsys.readouterr().out == first


@pytest.mark.parametrize("seed", [0])
def test_progress_is_told_while_it_works(tmp_path, seed):
    shares = []
    analyse_record(plain_record(seed), BOARD, CHART, progress=shares.append)
    assert shares == sorted(shares) and shares[-1] == 1.0 and len(shares) == plain_game(
        seed).ply


def test_the_benchmark_prints_its_figures():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, str(root / "scripts" / "bench" / "hiding.py"),
                          "--deals", "2", "--rounds", "1"], capture_output=True, text=True,
                         check=True, cwd=root).stdout
    data = json.loads(out)
    assert data["players"] == 4 and data["moves"] >= 30
    assert data["pi4_60_moves_s"] == pytest.approx(
        data["analysis_s"] / data["moves"] * 60 * data["pi_factor"], rel=0.01, abs=0.002)


def test_the_calibration_script_reads_recorded_games(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    games = tmp_path / "games.jsonl"
    games.write_text("".join(json.dumps({"levels": ["x"] * 3, "record": plain_record(s)}) + "\n"
                             for s in (0, 1)))
    calibration = root / "scripts" / "research" / "hiding_calibration.py"
    out = subprocess.run([sys.executable, str(calibration),
                          str(games), "--every", "5"], capture_output=True, text=True,
                         check=True, cwd=root).stdout
    assert out.startswith("2 games") and "seat:" in out and "onlooker:" in out
    assert "uniform 0.750" in out and "uniform 0.800" in out
    data = json.loads(subprocess.run([sys.executable, str(calibration), str(games),
                                      "--every", "5", "--json"], capture_output=True,
                                     text=True, check=True, cwd=root).stdout)
    assert data["games"] == 2
    assert data["seat"]["uniform"] == 0.75 and data["onlooker"]["uniform"] == 0.8
    for kind in ("seat", "onlooker"):
        # The JSON holds the figures the text shows, unrounded.
        assert f"{kind}: {data[kind]['readings']} readings" in out
        assert f"Brier {data[kind]['brier']:.3f}" in out
        assert f"ECE {data[kind]['ece']:.3f}" in out
        assert sum(b["count"] for b in data[kind]["reliability"]) == data[kind]["probabilities"]
