"""docs/figures.md, the one place measured figures come from (scripts/bench/figures.py):
the committed page has every figure once, the writer measures some rows and keeps the
rest, pytest's output is read, and every link to a figure names one. No benchmark runs."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from scripts.bench import figures

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "figures.md"

#: The ids other pages link to (figures.md#ID), in the table's order.
IDS = ("engine-games", "engine-reference-ratio", "compiled-playouts", "compiled-search",
       "search-iterations", "search-parallel",
       "hiding-reading", "ui-redraw", "ui-idle-cpu", "ui-first-frame", "ui-memory",
       "ui-redraw-phones", "history-open", "history-cached", "phones-press",
       "hiding-analysis", "calibration-open", "calibration-hiding", "calibration-random",
       "calibration-mix", "test-suite", "test-suite-python")


def table_rows(text: str) -> list[list[str]]:
    """The cells of the table's rows between the markers (not its header), read here
    without the writer's own parser."""
    block = text.split(figures.BEGIN, 1)[1].split(figures.END, 1)[0]
    lines = [line for line in block.splitlines() if line.startswith("|")]
    assert lines[0].replace(" ", "") == "|" + "|".join(figures.COLUMNS) + "|"
    assert set(lines[1].replace(" ", "")) <= set("|-:")
    return [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines[2:]]


def test_the_rows_are_the_figures_pages_link_to():
    assert figures.ROW_IDS == IDS


def test_the_committed_page_has_every_figure_once_with_its_anchor():
    text = PAGE.read_text(encoding="utf-8")
    rows = table_rows(text)
    ids = [re.match(r'<a id="([^"]+)"></a>\S', row[0])[1] for row in rows]
    assert tuple(ids) == IDS
    for row in rows:
        assert len(row) == len(figures.COLUMNS) and all(row), row
    for figure_id in IDS:
        assert text.count(f'id="{figure_id}"') == 1, figure_id
    for marker in (figures.BEGIN, figures.END, figures.SLOWEST_BEGIN, figures.SLOWEST_END):
        assert text.count(marker) == 1, marker
    assert text.index(figures.SLOWEST_BEGIN) < text.index(figures.SLOWEST_END)


# ------------------------------------------------------------------ the writer

ENGINE = {"games_per_s": 7001, "speedup_vs_reference": 301.5,
          "reference_dict_of_counters_games_per_s": 23.2}


def fake_runner(outputs: dict[str, str], calls: list[str]):
    def run(command: str, _timeout_s: float) -> tuple[str, float, int]:
        calls.append(command)
        return outputs[command], 1.0, 0
    return run


def old_page(tmp_path: Path) -> Path:
    """A page whose every row says "old", with text of its own around the markers."""
    text = figures.TEMPLATE.replace(figures.BEGIN, "Someone's note.\n\n" + figures.BEGIN)
    text += "\nA closing paragraph.\n"
    old = {r.id: figures.row_cells(r, "old", "2000-01-01", "old machine", "abc1234", "old")
           for r in figures.ROWS}
    page = tmp_path / "figures.md"
    page.write_text(figures.update(text, old, "1. 9.00 s `tests/test_old.py::test` (call)"))
    return page


def test_measuring_one_row_keeps_the_others_and_the_text_around(tmp_path):
    page = old_page(tmp_path)
    before = page.read_text()
    engine = figures.BENCHES["engine"].command
    calls: list[str] = []
    rows = figures.selected(["engine-games"], skip_slow=False)
    assert figures.measure(rows, page, fake_runner({engine: json.dumps(ENGINE)}, calls)) == []
    after = page.read_text()
    assert calls == [engine]
    new = {row[0]: row for row in table_rows(after)}
    old = {row[0]: row for row in table_rows(before)}
    games = new['<a id="engine-games"></a>' + figures.ROWS[0].figure]
    assert games[2] == "7,001 games/s, met" and games[6] == f"`{engine}`"
    assert games[3] != "2000-01-01" and games[4] == figures.machine()
    assert {k: v for k, v in new.items() if "engine-games" not in k} == {
        k: v for k, v in old.items() if "engine-games" not in k}
    # Outside the table, nothing moved: the note, the slowest list, the closing paragraph.
    table = re.compile(re.escape(figures.BEGIN) + ".*" + re.escape(figures.END), re.DOTALL)
    assert table.sub("", after) == table.sub("", before)
    assert after.count(figures.BEGIN) == after.count(figures.END) == 1


def test_rows_of_one_benchmark_are_measured_by_one_run(tmp_path):
    page = old_page(tmp_path)
    engine = figures.BENCHES["engine"].command
    calls: list[str] = []
    rows = figures.selected(["engine-games", "engine-reference-ratio"], skip_slow=False)
    figures.measure(rows, page, fake_runner({engine: "noise\n" + json.dumps(ENGINE)}, calls))
    assert calls == [engine]
    values = {row[0].split("</a>")[0]: row[2] for row in table_rows(page.read_text())}
    assert values['<a id="engine-reference-ratio">'] == "301.5 times (23.2 games/s)"


def test_a_failed_run_leaves_its_rows_as_they_were(tmp_path, capsys):
    page = old_page(tmp_path)
    before = page.read_text()

    def fails(_command, _timeout_s):
        return "Traceback ...", 1.0, 1

    assert figures.measure(figures.selected(["phones-press"], False), page, fails) == ["phones"]
    assert page.read_text() == before
    assert "phones failed" in capsys.readouterr().err


def test_a_new_page_is_made_from_the_template(tmp_path):
    page = tmp_path / "figures.md"
    phones = figures.BENCHES["phones"].command
    out = json.dumps({"press_to_colour_ms": {"median": 0.11, "p95": 0.13, "max": 1.0}})
    figures.measure(figures.selected(["phones-press"], False), page,
                    fake_runner({phones: out}, []))
    rows = table_rows(page.read_text())
    assert len(rows) == len(IDS) and all(all(row) for row in rows)
    assert [r[2] for r in rows if "phones-press" in r[0]] == [
        "0.11 ms (95th percentile 0.13), met"]


def test_skip_slow_leaves_out_the_suite_and_the_calibration():
    ids = [row.id for row in figures.selected(None, skip_slow=True)]
    assert not any(i.startswith(("test-suite", "calibration")) for i in ids)
    assert len(ids) == len(IDS) - 6


def _population(brier: float, ece: float, over: bool) -> dict:
    table = [{"lo": 0.9, "hi": 1.0, "count": 120, "series": 30, "mean": 0.95,
              "observed": 0.8 if over else 0.96, "overconfident": over}]
    return {"brier": brier, "uniform": 0.75, "ece": ece, "reliability": table,
            "overconfident_bins": int(over)}


def test_a_command_with_a_pipe_survives_the_table(tmp_path):
    command = figures.BENCHES["calibration-mix"].command
    assert " | " in command
    page = old_page(tmp_path)
    data = json.dumps({"games": 204, "seat": _population(0.6523, 0.011, False),
                       "onlooker": {**_population(0.7, 0.02, False), "uniform": 0.8}})
    figures.measure(figures.selected(["calibration-mix"], False), page,
                    fake_runner({command: data}, []))
    cells = figures.parse_rows(page.read_text())["calibration-mix"]
    assert cells[2] == ("seats 0.652 (blind 0.750), error 0.011, 0 bins; onlooker 0.700 "
                        "(blind 0.800), error 0.020, 0 bins, met")
    assert cells[6].replace("\\|", "|") == f"`{command}`"


@pytest.mark.parametrize(("brier", "ece", "over"), [(0.76, 0.01, False), (0.6, 0.031, False),
                                                    (0.6, 0.01, True)])
def test_a_population_misses_its_goal_on_any_of_the_three(tmp_path, brier, ece, over):
    """Brier at or over the blind guess's, calibration error over 0.03, or a bin that
    said more than came true: each alone misses the after-game reading's goal."""
    command = figures.BENCHES["calibration-open"].command
    page = old_page(tmp_path)
    good = {**_population(0.6, 0.01, False), "uniform": 0.8}
    data = json.dumps({"games": 204, "seat": _population(brier, ece, over), "onlooker": good})
    figures.measure(figures.selected(["calibration-open"], False), page,
                    fake_runner({command: data}, []))
    assert figures.parse_rows(page.read_text())["calibration-open"][2].endswith("**missed**")


def test_each_population_writes_its_reliability_table_under_its_own_heading(tmp_path):
    command = figures.BENCHES["calibration-hiding"].command
    page = old_page(tmp_path)
    data = json.dumps({"games": 204, "seat": _population(0.6, 0.01, True),
                       "onlooker": {**_population(0.7, 0.02, False), "uniform": 0.8}})
    figures.measure(figures.selected(["calibration-hiding"], False), page,
                    fake_runner({command: data}, []))
    text = page.read_text()
    block = text.split("<!-- reliability-hiding:begin -->")[1].split(
        "<!-- reliability-hiding:end -->")[0]
    assert "Players who hide their clan: Hard and Normal, 204 games" in block
    assert "| seats | 0.9 to 1.0 | 120 | 30 | 0.950 | 0.800 | **yes** |" in block
    assert "| onlooker | 0.9 to 1.0 | 120 | 30 | 0.950 | 0.960 | no |" in block
    # The other populations' tables are untouched.
    assert "<!-- reliability-open:begin -->\n<!-- reliability-open:end -->" in text


def test_list_prints_every_id_and_its_command(capsys):
    assert figures.main(["--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(IDS)
    assert lines[-2].split(None, 1)[1] == figures.TEST_COMMAND
    assert lines[-1].split(None, 1)[1] == f"CLANS_PI_CORE=python {figures.TEST_COMMAND}"


def test_every_command_runs_a_script_of_the_checkout():
    for bench in figures.BENCHES.values():
        for part in bench.command.split(" | "):
            words = shlex.split(part)
            if words[0] == "CLANS_PI_CORE=python":  # the Python path's run
                words = words[1:]
            if words[0] == figures.PY:
                assert words[1] == "-m"
                module = ROOT / (words[2].replace(".", "/") + ".py")
            elif words[0] == "tee":  # keeps the games for a second look
                assert len(words) == 2 and words[1].endswith(".jsonl")
                continue
            else:
                module = ROOT / words[0]
            assert module.is_file(), part


# ------------------------------------------------------------------ pytest's output

DURATIONS = """\
bringing up nodes...
........................................................................ [ 50%]
.................................s...................................... [100%]
============================= slowest 10 durations =============================
41.22s call     tests/test_build_image.py::test_the_image_builds
12.05s call     tests/test_phones_browser.py::test_the_page[390x844]
3.50s setup    tests/test_ui_app.py::test_start
0.90s teardown tests/test_x.py::test_y
(6 durations < 0.005s hidden.  Use -vv to show these durations.)
1,2 things
1234 passed, 3 skipped, 2 warnings in 312.45s (0:05:12)
"""


def test_the_durations_list_is_read():
    assert figures.slowest_tests(DURATIONS) == [
        (41.22, "call", "tests/test_build_image.py::test_the_image_builds"),
        (12.05, "call", "tests/test_phones_browser.py::test_the_page[390x844]"),
        (3.5, "setup", "tests/test_ui_app.py::test_start"),
        (0.9, "teardown", "tests/test_x.py::test_y"),
    ]
    assert figures.slowest_tests("1 passed in 0.1s\n") == []


def test_the_suite_s_closing_line_is_read():
    assert figures.suite_counts(DURATIONS) == {"passed": 1234, "skipped": 3, "warnings": 2}
    assert figures.suite_counts("=== 2 failed, 10 passed in 3.00s ===\n") == {
        "failed": 2, "passed": 10}
    assert figures.suite_counts("ruff found problems\n") == {}
    data = figures.read_suite(DURATIONS, 372.4, 0)
    assert figures.suite_value(data) == "6 min 12 s, 1,234 passed (3 skipped, 2 warnings)"
    with pytest.raises(RuntimeError):
        figures.read_suite("ruff found problems\n", 2.0, 1)


# ------------------------------------------------------------------ links to figures

LINK = re.compile(r"figures\.md#([A-Za-z0-9_-]+)")


def figure_links(root: Path) -> list[tuple[str, str]]:
    """(page, id) of every ``figures.md#ID`` link in README.md and docs/*.md."""
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    return [(str(p.relative_to(root)), m[1]) for p in pages if p.exists()
            for m in LINK.finditer(p.read_text(encoding="utf-8"))]


def broken_links(root: Path, ids) -> list[tuple[str, str]]:
    return [(page, i) for page, i in figure_links(root) if i not in ids]


#: Anchors of the page that are sections, not rows: written by the script's template.
SECTIONS = ("calibration-populations",)


def test_every_link_to_a_figure_names_one():
    assert broken_links(ROOT, IDS + SECTIONS) == []


def test_the_sections_other_pages_link_to_are_on_the_page_and_in_the_template():
    for anchor in SECTIONS:
        assert f'<a id="{anchor}"></a>' in PAGE.read_text(encoding="utf-8")
        assert f'<a id="{anchor}"></a>' in figures.TEMPLATE


def test_a_link_to_a_missing_figure_is_found(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("[games](docs/figures.md#engine-games)\n")
    (tmp_path / "docs" / "pi.md").write_text("see [it](figures.md#ui-redraw-on-a-pi)\n")
    assert broken_links(tmp_path, IDS) == [("docs/pi.md", "ui-redraw-on-a-pi")]


def test_the_suite_s_row_and_slowest_list_are_written(tmp_path):
    page = old_page(tmp_path)
    before = page.read_text()
    calls: list[str] = []
    figures.measure(figures.selected(["test-suite"], False), page,
                    fake_runner({figures.TEST_COMMAND: DURATIONS}, calls))
    text = page.read_text()
    assert calls == [figures.TEST_COMMAND]
    assert figures.parse_rows(text)["test-suite"][2] == "1 s, 1,234 passed " \
                                                       "(3 skipped, 2 warnings), met"
    slowest = text.split(figures.SLOWEST_BEGIN, 1)[1].split(figures.SLOWEST_END, 1)[0]
    assert "test_old.py" not in slowest and figures.commit() in slowest
    assert re.findall(r"^\d+\. .*$", slowest, re.MULTILINE) == [
        "1. 41.22 s `tests/test_build_image.py::test_the_image_builds` (call)",
        "2. 12.05 s `tests/test_phones_browser.py::test_the_page[390x844]` (call)",
        "3. 3.50 s `tests/test_ui_app.py::test_start` (setup)",
        "4. 0.90 s `tests/test_x.py::test_y` (teardown)"]
    # Nothing after the list moved.
    assert text.split(figures.SLOWEST_END, 1)[1] == before.split(figures.SLOWEST_END, 1)[1]


def test_every_figure_with_a_goal_says_whether_it_met_it():
    """A goal missed is said in the figure's own cell, so a page linking to it cannot hide
    it (idle CPU over 1 % of a core on a busy day, say)."""
    with_goal = [row for row in figures.ROWS if row.goal != "—"]
    assert with_goal and all(row.met is not None for row in with_goal), [
        row.id for row in with_goal if row.met is None]
    idle = next(row for row in figures.ROWS if row.id == "ui-idle-cpu")
    assert idle.cell({"idle_cpu_percent": 0.5}) == "0.5 %, met"
    assert idle.cell({"idle_cpu_percent": 1.3}) == "1.3 %, **missed**"
    plain = next(row for row in figures.ROWS if row.id == "history-cached")
    assert plain.cell({"open_list_cold_cached_s": 0.03}) == "0.03 s"


def test_a_bench_named_like_a_population_writes_no_reliability_table(tmp_path):
    """The after-game reading's speed (bench "hiding") is not the hiding population's
    calibration (bench "calibration-hiding"): its row is written, the tables are not."""
    page = old_page(tmp_path)
    command = figures.BENCHES["hiding"].command
    data = json.dumps({"per_move_ms": 1.5, "pi4_60_moves_s": 0.36})
    assert figures.measure(figures.selected(["hiding-analysis"], False), page,
                           fake_runner({command: data}, [])) == []
    text = page.read_text()
    assert figures.parse_rows(text)["hiding-analysis"][2].startswith("0.090 s (Pi 4: 0.36 s)")
    assert "<!-- reliability-hiding:begin -->\n<!-- reliability-hiding:end -->" in text
