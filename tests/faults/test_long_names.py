"""Faults of a player's name far longer than the on-screen keyboard lets anyone type (10,000
letters, or 10,000 combining marks on one letter): refused where records and saves are read,
and never handed whole to the font renderer (which crashed on it: a segmentation fault).

The command line runs in a subprocess: a crash of the renderer is a failure, not the end of
the test run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clans_pi.rules.constants import MAX_NAME_LENGTH
from clans_pi.saving.store import GameStore
from tests.faults import fault
from tests.faults.test_store import write_crafted
from tests.history_helpers import finished_record
from tests.ui_helpers import finished_session

ROOT = Path(__file__).resolve().parents[2]
LONG = {"plain": "A" * 10_000, "marks": "a" + "\u0301" * 9_999}


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run([sys.executable, "-m", "clans_pi.cli", *argv], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300, check=False)


def _refused(proc: subprocess.CompletedProcess[str], command: str) -> None:
    assert proc.returncode == 1, (proc.returncode, proc.stderr[-2000:])
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"clans-pi {command}: "), lines
    assert "name" in lines[0] and len(lines[0]) < 300, lines[0][:300]


@pytest.fixture
def long_record(tmp_path, request) -> Path:
    data = finished_record([("Ann", "fox", "human"), ("Ben", "owl", "human")], 3)
    name = LONG[request.param]
    data["players"] = [name if p == "Ann" else p for p in data["players"]]
    for seat in data.get("table", {}).get("seats", []):
        if seat.get("name") == "Ann":
            seat["name"] = name
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@fault("save", "a record whose player's name is 10,000 letters (or 10,000 combining marks) "
       "drawn (`clans-pi render RECORD --screen reveal -o OUT.png` or `--screen hiding`) or "
       "replayed (`clans-pi replay`)",
       sees=f"one line: the name is longer than a name may be ({MAX_NAME_LENGTH} characters); "
       "exit 1, no picture, no crash",
       kept="the record, untouched")
@pytest.mark.parametrize("long_record", ["plain", "marks"], indirect=True)
def test_a_record_with_a_name_of_ten_thousand_characters(long_record, tmp_path):
    before = long_record.read_bytes()
    for screen in ("reveal", "hiding"):
        out = tmp_path / f"{screen}.png"
        proc = _cli("render", str(long_record), "--screen", screen, "-o", str(out),
                    "--size", "800x480")
        _refused(proc, "render")
        assert not out.exists()
    proc = _cli("replay", str(long_record))
    _refused(proc, "replay")
    assert proc.stdout == ""
    assert long_record.read_bytes() == before


@fault("save", "a save with a valid checksum whose player's name is 10,000 letters (or "
       "10,000 combining marks), drawn (`clans-pi render SAVE --screen reveal -o OUT.png`)",
       sees="one line: the name is longer than a name may be; exit 1, no picture, no crash",
       kept="the save, untouched")
@pytest.mark.parametrize("kind", ["plain", "marks"])
def test_a_save_with_a_name_of_ten_thousand_characters(tmp_path, kind):
    session = finished_session(2)
    store = GameStore(tmp_path / "state")
    store.save(session)
    payload = json.loads(store.current.read_text(encoding="utf-8"))["payload"]
    old = payload["seats"][0]["name"]
    payload["seats"][0]["name"] = LONG[kind]
    record = payload["game"]["record"]
    record["players"] = [LONG[kind] if p == old else p for p in record["players"]]
    write_crafted(store.current, payload)
    before = store.current.read_bytes()
    for screen in ("reveal", "hiding"):
        out = tmp_path / f"{screen}.png"
        proc = _cli("render", str(store.current), "--screen", screen, "-o", str(out),
                    "--size", "800x480")
        _refused(proc, "render")
        assert not out.exists()
    assert store.current.read_bytes() == before
