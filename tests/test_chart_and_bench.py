"""The epoch chart data (R4, R15) and its checks; the benchmark script's output."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from clans_pi.cli import main
from clans_pi.rules.epochs import FAVOURABLE, HOSTILE, NEUTRAL, EpochChart, load_default_chart
from clans_pi.rules.errors import ChartError

ROOT = Path(__file__).resolve().parent.parent


def test_r15_standard_chart_matches_the_rules_table() -> None:
    chart = load_default_chart()
    rows = [(e.chips, e.bonus, sorted(e.favourable), sorted(e.hostile)) for e in chart.epochs]
    assert rows == [
        (4, 1, ["forest"], ["mountain"]),
        (3, 2, ["mountain"], ["grassland"]),
        (2, 3, ["steppe"], ["forest"]),
        (2, 4, ["grassland"], ["steppe"]),
        (1, 5, ["forest", "grassland", "mountain", "steppe"], []),
    ]


def test_r4_r16_twelve_chips_in_epoch_order() -> None:
    chart = load_default_chart()
    assert chart.total_chips == 12
    assert chart.chip_epoch[1:] == (1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5)


def test_r15_each_terrain_favourable_once_and_hostile_once_in_epochs_one_to_four() -> None:
    effects = load_default_chart().effect
    for terrain in range(4):
        column = [effects[e][terrain] for e in range(1, 5)]
        assert column.count(FAVOURABLE) == 1 and column.count(HOSTILE) == 1
        assert column.count(NEUTRAL) == 2


def test_r17_twelfth_chip_favours_every_terrain() -> None:
    chart = load_default_chart()
    last = chart.chip_epoch[12]
    assert all(effect == FAVOURABLE for effect in chart.effect[last])
    assert chart.bonus[last] == 5


def _standard() -> dict:
    return copy.deepcopy(load_default_chart().to_dict())


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda c: c["epochs"][0].update(chips=5), "13 chips in all; the game has 12 (R4)"),
        (lambda c: c["epochs"][1].update(chips=0), "epoch 2: 'chips' must be a positive integer"),
        (lambda c: c["epochs"][2].update(bonus=-1), "epoch 3: 'bonus' must be a whole number"),
        (lambda c: c["epochs"][0]["hostile"].append("lava"), "epoch 1: unknown terrain 'lava'"),
        (
            lambda c: c["epochs"][0]["hostile"].append("forest"),
            "epoch 1: forest is both favourable and hostile",
        ),
        (lambda c: c["epochs"][3].update(number=7), "epoch 4: 'number' is 7, expected 4"),
        (lambda c: c.update(epochs=[]), "'epochs' must be a non-empty list"),
    ],
)
def test_bad_chart_is_rejected_with_a_clear_message(mutate, message: str) -> None:
    data = _standard()
    mutate(data)
    with pytest.raises(ChartError) as info:
        EpochChart.from_dict(data)
    assert message in str(info.value)


def test_chart_round_trips() -> None:
    data = _standard()
    assert EpochChart.from_dict(data).to_dict() == data


def test_variant_chart_file_is_used_by_replay_and_bad_one_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _standard()
    bad["epochs"][4]["chips"] = 2
    path = tmp_path / "chart.json"
    path.write_text(json.dumps(bad))
    code = main(["play", "--quiet", "--seed", "1", "--chart", str(path)])
    err = capsys.readouterr().err
    assert code == 1
    assert (
        err.strip() == f"clans-pi play: epoch chart file {path}: epoch chart: 13 chips in all; "
        "the game has 12 (R4)"
    )


def test_bench_prints_one_json_object_with_the_figures() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "bench" / "engine.py"),
            "--seconds",
            "0.01",
            "--rounds",
            "1",
            "--compare",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    for key in (
        "games_per_s",
        "moves_per_s",
        "reference_dict_of_counters_games_per_s",
        "speedup_vs_reference",
    ):
        assert data[key] > 0, key
    assert data["moves_per_s"] > data["games_per_s"]
