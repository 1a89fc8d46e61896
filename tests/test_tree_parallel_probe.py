"""scripts/tree_parallel_probe.py: one tree whose simulations run on helper processes
counts every iteration once (the probe asserts it) and reports its figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_probe_farms_a_trees_simulations_out_and_reports_both_searches():
    for extra in ([], ["--no-local", "--cprofile"]):
        out = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "tree_parallel_probe.py"), "--helpers",
             "1", "--seconds", "0.2", "--rounds", "1", *extra],
            capture_output=True, text=True, timeout=240, check=True)
        figures = json.loads(out.stdout)
        assert figures["helpers"] == 1 and figures["no_local"] == bool(extra)
        # The profile, when asked (which functions make its top lines depends on the load).
        assert ("Ordered by: internal time" in out.stderr) == bool(extra)
        assert figures["one_process_it_s"] > 0 and figures["one_tree_it_s"] > 0
        assert figures["tree_process_cpu_us"] > 0
        assert figures["tree_bound_speedup"] == pytest.approx(
            figures["one_process_cpu_us"] / figures["tree_process_cpu_us"], rel=0.05)
