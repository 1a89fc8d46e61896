"""The clans-pi command line: board, replay and headless play, and its errors for people."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from clans_pi.bots.random_mover import RandomMover
from clans_pi.cli import main
from clans_pi.rules.board import load_default_board
from clans_pi.rules.constants import CLANS
from clans_pi.rules.epochs import load_default_chart
from clans_pi.rules.record import replay, result, to_record
from clans_pi.rules.setup import deal

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def finished_record() -> dict:
    board, chart = load_default_board(), load_default_chart()
    state = RandomMover(11).play_game(
        deal(board, ["Ann", "Ben", "Cat"], __import__("random").Random(4), chart)
    )
    return to_record(state)


def write(tmp_path: Path, data: object, name: str = "f.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


# --------------------------------------------------------------------------- board


def test_board_json_has_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "board", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["id"] == load_default_board().id
    assert len(data["territories"]) == 60
    for t in data["territories"]:
        assert {"id", "terrain", "region", "neighbors"} <= set(t)
        assert all(t["id"] in data["territories"][n]["neighbors"] for n in t["neighbors"])


def test_board_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "board")
    assert code == 0
    assert "60 territories in 12 regions" in out
    assert "24 grassland" in out


def test_board_file_round_trips_through_board_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run(capsys, "board", "--json")
    code, out, _ = run(capsys, "board", "--json")
    path = write(tmp_path, out, "board.json")
    code, out2, err = run(capsys, "board", "--json", "--board", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out2) == json.loads(out)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda b: b["territories"][12]["neighbors"].remove(
                b["territories"][12]["neighbors"][0]
            ),
            "territory {n}: lists 12 as a neighbour but territory 12 does not list {n}",
        ),
        (
            lambda b: b["territories"][7].update(terrain="desert"),
            "territory 7: unknown terrain 'desert'",
        ),
        (
            lambda b: b["territories"][3].update(region=4),
            "region 0 has 4 territories (0, 1, 2, 4); each region needs 5",
        ),
        (lambda b: b["territories"].pop(), "board has 59 territories; a Clans board has 60"),
        (
            lambda b: b["territories"][5]["neighbors"].append(5),
            "territory 5: lists itself as a neighbour",
        ),
        (
            lambda b: b["territories"][9]["neighbors"].append(99),
            "territory 9: unknown neighbour 99",
        ),
        (
            lambda b: b["territories"][2].update(id="two"),
            "territories[2]: 'id' must be an integer, not 'two'",
        ),
        (
            lambda b: b["territories"][2].update(polygon=[[0, 0], [1], [0, 1]]),
            "territory 2 polygon: [1] is not an [x, y] point",
        ),
    ],
)
def test_bad_board_file_names_the_territory_and_problem(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mutate, message: str
) -> None:
    board = copy.deepcopy(load_default_board().to_dict())
    first_neighbour = board["territories"][12]["neighbors"][0]
    mutate(board)
    path = write(tmp_path, board)
    code, out, err = run(capsys, "board", "--board", str(path))
    assert code == 1 and out == ""
    assert err.count("\n") == 1, err
    assert message.format(n=first_neighbour) in err
    assert f"board file {path}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON at line 1, column 2"),
        ("[]", "expected a JSON object at the top level"),
        ('{"territories": 3}', "'territories' must be a list"),
    ],
)
def test_malformed_board_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    path = write(tmp_path, content)
    code, _, err = run(capsys, "board", "--board", str(path))
    assert code == 1 and message in err and err.count("\n") == 1


def test_missing_board_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "board", "--board", str(tmp_path / "nope.json"))
    assert code == 1
    assert err.strip() == f"clans-pi board: board file {tmp_path / 'nope.json'}: no such file"


# -------------------------------------------------------------------------- replay


def test_replay_prints_the_documented_result(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, finished_record: dict
) -> None:
    code, out, err = run(capsys, "replay", str(write(tmp_path, finished_record)))
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"clan_points", "chips", "scores", "winners", "villages", "end"}
    assert set(data["clan_points"]) == set(CLANS)
    assert data["end"] in ("twelfth_village", "no_moves")
    assert len(data["chips"]) == len(data["scores"]) == 3
    assert data["winners"] and all(0 <= w < 3 for w in data["winners"])
    for v in data["villages"]:
        assert set(v) == {"territory", "chip", "epoch", "founder", "huts", "value"}
        assert 1 <= v["chip"] <= 12 and 1 <= v["epoch"] <= 5
    # R20: each score is the player's clan points plus chips.
    for i, clan in enumerate(finished_record["clans"]):
        assert data["scores"][i] == data["clan_points"][clan] + data["chips"][i]
    board, chart = load_default_board(), load_default_chart()
    assert data == result(replay(finished_record, board, chart))


def test_replay_reads_standard_input(finished_record: dict) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "clans_pi.cli", "replay", "-"],
        input=json.dumps(finished_record),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["end"] != "in_progress"


def test_replay_of_an_unfinished_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, finished_record: dict
) -> None:
    record = dict(finished_record, moves=finished_record["moves"][:5])
    code, out, _ = run(capsys, "replay", str(write(tmp_path, record)))
    data = json.loads(out)
    assert code == 0 and data["end"] == "in_progress" and data["winners"] == []


def _empty_source_move(record: dict) -> dict:
    """Make move 7 start from the territory that move 1 emptied (R8: it stays empty)."""
    moves = [dict(m) for m in record["moves"]]
    moves[6] = {"from": moves[0]["from"], "to": moves[6]["to"]}
    return dict(record, moves=moves)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_empty_source_move, "move 7: territory {src} is empty"),
        (
            lambda r: dict(r, moves=[*r["moves"][:2], {"from": 0, "to": 59}]),
            "move 3: territory 59 is not a neighbour of 0",
        ),
        (
            lambda r: dict(r, moves=[*r["moves"][:2], {"from": "x", "to": 1}]),
            "move 3: 'from' must be a territory id, not 'x'",
        ),
        (lambda r: dict(r, moves=[*r["moves"], {"from": 1, "to": 2}]), "the game is over"),
        (
            lambda r: dict(r, huts={**r["huts"], "0": "purple"}),
            "huts: territory 0 has unknown clan 'purple'",
        ),
        (
            lambda r: dict(r, huts={k: v for k, v in r["huts"].items() if k != "17"}),
            "huts: 59 entries; one hut per territory needs 60",
        ),
        (lambda r: dict(r, huts={**r["huts"], "0": r["huts"]["1"]}), "huts: region 0 has two"),
        (
            lambda r: dict(r, clans=["red", "red", "blue"]),
            "clans: each player needs a different clan",
        ),
        (
            lambda r: dict(r, players=["solo"], clans=["red"]),
            "players: 2 to 4 players play (R6), not 1",
        ),
        (lambda r: {k: v for k, v in r.items() if k != "moves"}, "record: 'moves' is missing"),
        (lambda r: dict(r, format="chess-pgn"), "record: 'format' is 'chess-pgn'"),
        (lambda r: [r], "record: expected a JSON object at the top level"),
    ],
)
def test_bad_record_exits_nonzero_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, finished_record: dict, change, message
) -> None:
    src = finished_record["moves"][0]["from"]
    code, out, err = run(capsys, "replay", str(write(tmp_path, change(finished_record))))
    assert code == 1 and out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("clans-pi replay: ")
    assert message.format(src=src) in err


def test_replay_of_illegal_big_group_move_cites_r9(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Find a position where a group of 7+ may not move into a smaller neighbour."""
    board, chart = load_default_board(), load_default_chart()
    for seed in range(200):
        state = deal(board, ["a", "b"], __import__("random").Random(seed), chart)
        mover = RandomMover(seed)
        while not state.is_over:
            for src in range(60):
                n = state.hut_total(src)
                if n >= 7 and state.live_mask >> src & 1:
                    for dst in board.neighbors(src):
                        if 0 < state.hut_total(dst) < n and not state.is_village(dst):
                            record = to_record(state)
                            record["moves"].append({"from": src, "to": dst})
                            code, _, err = run(capsys, "replay", str(write(tmp_path, record)))
                            assert code == 1
                            assert f"move {state.ply + 1}: territory {src} holds {n} huts" in err
                            assert "(R9)" in err
                            return
            state.play(mover.choose(state))
    pytest.fail("no position with a blocked big group found")


# ---------------------------------------------------------------------------- play


def test_headless_play_is_reproducible_and_writes_a_replayable_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    code, out1, _ = run(
        capsys, "play", "--headless", "--seed", "5", "--players", "4", "--record", str(path)
    )
    assert code == 0
    code, out2, _ = run(capsys, "play", "--headless", "--seed", "5", "--players", "4")
    assert out1.splitlines()[:-1] == out2.splitlines()  # out1 ends naming the record file
    assert "Game over after" in out1 and "winner" in out1
    code, replayed, _ = run(capsys, "replay", str(path))
    assert code == 0 and json.loads(replayed)["end"] != "in_progress"


def test_headless_play_log_reveals_no_clan_before_the_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """R22: the running log names players and villages, never who holds which clan."""
    _, out, _ = run(capsys, "play", "--headless", "--seed", "8", "--players", "3")
    before_end = out.split("Game over after")[0]
    for clan in CLANS:
        for name in ("Ada", "Bo", "Cy"):
            assert f"{name}: {clan}" not in before_end
            assert f"{name} ({clan}" not in before_end


def test_play_rejects_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--headless", "--players", "6")
    assert code == 1 and err.strip() == "clans-pi play: --players must be 2 to 4, not 6"


def test_quiet_play_prints_only_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--headless", "--seed", "2", "--quiet", "--players", "2")
    assert code == 0 and len(out.splitlines()) == 2


def test_unwritable_record_path_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "missing-dir" / "game.json"
    code, _, err = run(
        capsys, "play", "--headless", "--seed", "1", "--quiet", "--record", str(target)
    )
    assert code == 1 and f"cannot write record {target}" in err


def test_console_script_is_installed() -> None:
    exe = Path(sys.executable).with_name("clans-pi")
    proc = subprocess.run([str(exe), "--version"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stdout.startswith("clans-pi ")


def test_stdin_io_helper_reports_bad_json(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("not json"))
    code, _, err = run(capsys, "replay", "-")
    assert code == 1 and "record standard input: not valid JSON at line 1, column 1" in err
