"""The UI benchmark script: one JSON object with every figure, and no game left running;
with --phones, the same figures with two phones connected and under the phones' load,
next to them."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SIZES = ("800x480", "1920x1080")


def _positive(value: object, key: str) -> None:
    assert isinstance(value, int | float) and not isinstance(value, bool), key
    assert math.isfinite(value) and value > 0, key


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_bench_ui_prints_one_json_object_and_stops_the_game() -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "bench" / "ui.py"),
            "--rounds",
            "5",
            "--idle-seconds",
            "1",
            "--starts",
            "1",
            "--phones",
            "--load-phones",
            "4",
            "--load-rounds",
            "1",
            "--load-bad",
            # Few enough that no wrong link waits for the server's guard (a second each):
            # the guard has its own tests (tests/test_phones_load.py); here, the figures.
            "40",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)  # one object, nothing else on stdout
    assert isinstance(data, dict)
    for key in ("full_redraw_ms", "partial_redraw_ms", "select_ms"):
        assert set(data[key]) == set(SIZES), key
        for size in SIZES:
            _positive(data[key][size], f"{key} {size}")
    for key in ("peak_rss_mb", "first_frame_s", "first_frame_play_s"):
        _positive(data[key], key)
    # A second of idling may well be under one clock tick: zero is a fair reading.
    idle = data["idle_cpu_percent"]
    assert isinstance(idle, int | float) and math.isfinite(idle) and idle >= 0
    # With phones: the same redraw figures, idle CPU with two connected, and the load's.
    phones = data["phones"]
    assert set(phones) == {"two_phones", "under_load"}
    for figures in phones.values():
        for key in ("full_redraw_ms", "partial_redraw_ms", "select_ms"):
            assert set(figures[key]) == set(SIZES), key
            for size in SIZES:
                _positive(figures[key][size], f"phones {key} {size}")
    idle_phones = phones["two_phones"]["idle_cpu_percent"]
    assert isinstance(idle_phones, int | float) and idle_phones >= 0
    loaded = phones["under_load"]
    assert loaded["batches"] >= 1
    for load in (loaded["load"], loaded["game"]["load"]):
        assert load["problems"] == [] and load["bad"] >= 40
        assert load["phones"] == 4 and load["visits"] == 4
    assert loaded["game"]["cpu_percent"] >= 0 and loaded["game"]["seconds"] > 0
    for key in ("python", "pygame", "sdl", "machine"):
        assert isinstance(data[key], str) and data[key], key
    assert data["video_driver"] == "dummy"

    # The idle game was stopped and reaped (its pid is gone, or belongs to something else).
    pid = data["idle_pid"]
    _positive(pid, "idle_pid")
    cmdline = Path(f"/proc/{pid}/cmdline")
    try:
        args = cmdline.read_bytes().split(b"\0")
    except (FileNotFoundError, ProcessLookupError):
        return
    assert b"clans_pi.cli" not in args, "the idle game is still running"
