"""``clans-pi history --state-dir DIR [--json]``: the past games and the
scoreboard from the same code as the screen; a damaged record is one line on stderr and the
rest is listed; a bad directory is one line and exit status 1."""

from __future__ import annotations

import json

from clans_pi.cli import main
from clans_pi.history import History, scoreboard
from tests.history_helpers import BOARD, CHART, family_games


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_lists_the_games_newest_first_and_the_scoreboard(tmp_path, capsys):
    family_games(tmp_path / "records", 6)
    code, out, err = _run(capsys, "history", "--state-dir", str(tmp_path), "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    games = History(tmp_path / "records", BOARD, CHART).refresh()
    assert [g["file"] for g in data["games"]] == [g.file for g in games]
    first = data["games"][0]
    assert set(first) == {"file", "date", "players", "winners", "scores", "end"}
    assert first["players"] == [p.name for p in games[0].players]
    assert first["scores"] == [p.score for p in games[0].players]
    assert first["winners"] == list(games[0].winners)
    assert first["end"] in ("twelfth_village", "no_moves")
    rows = scoreboard(games)
    assert data["scoreboard"] == [
        {"name": r.name, "games": r.games, "wins": round(r.wins, 2),
         "average": round(r.average, 1), "best": r.best} for r in rows]
    assert sum(r["games"] for r in data["scoreboard"]) == sum(len(g["players"])
                                                            for g in data["games"])


def test_text_lists_each_game_and_both_periods(tmp_path, capsys):
    family_games(tmp_path / "records", 3)
    code, out, _ = _run(capsys, "history", "--state-dir", str(tmp_path))
    assert code == 0
    games = History(tmp_path / "records", BOARD, CHART).refresh()
    for g in games:
        assert g.file in out
    assert "Scoreboard, all time:" in out and "Last 30 days:" in out


def test_a_damaged_record_is_one_line_on_stderr_and_the_rest_is_listed(tmp_path, capsys):
    family_games(tmp_path / "records", 2)
    (tmp_path / "records" / "torn.json").write_text('{"format": "clans-rec')
    code, out, err = _run(capsys, "history", "--state-dir", str(tmp_path), "--json")
    assert code == 0 and len(json.loads(out)["games"]) == 2
    assert err.count("\n") == 1 and "torn.json" in err and "Traceback" not in err


def test_an_empty_or_missing_state_directory(tmp_path, capsys):
    code, out, _ = _run(capsys, "history", "--state-dir", str(tmp_path))
    assert code == 0 and "No finished games" in out
    code, out, _ = _run(capsys, "history", "--state-dir", str(tmp_path), "--json")
    assert json.loads(out) == {"games": [], "scoreboard": []}
    code, _, err = _run(capsys, "history", "--state-dir", str(tmp_path / "nope"))
    assert code == 1 and err.count("\n") == 1 and "no such directory" in err


def test_one_game_is_one_game(tmp_path, capsys):
    family_games(tmp_path / "records", 1)
    _, out, _ = _run(capsys, "history", "--state-dir", str(tmp_path))
    assert out.startswith("1 finished game in ")
