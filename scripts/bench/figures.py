#!/usr/bin/env python3
"""Write docs/figures.md, the one place the project's measured figures come from.

Runs the benchmark scripts (each prints one JSON object), the after-game reading's
calibration and the test suite as subprocesses, from the checkout's top with its own
``.venv``, and writes their figures into the table between ``<!-- figures:begin -->`` and
``<!-- figures:end -->`` (columns: figure, goal, value, date, machine, commit, command), one
row per id of ``ROWS`` in that order, each row's first cell starting with its anchor
``<a id="ID"></a>`` so other pages link to ``figures.md#ID``. The test suite's ten slowest
tests go between ``<!-- slowest:begin -->`` and ``<!-- slowest:end -->``. Text outside the
markers is kept as it is; rows not measured keep their old cells.

Usage (from the checkout's top)::

    .venv/bin/python -m scripts.bench.figures                  # every row (about 20 min)
    .venv/bin/python -m scripts.bench.figures --only ui-redraw phones-press
    .venv/bin/python -m scripts.bench.figures --skip-slow      # not the suite, not calibration
    .venv/bin/python -m scripts.bench.figures --list           # the ids and their commands

Rows measured by the same command are measured together, by one run. A run that fails
leaves its rows as they were, is said on stderr, and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "docs" / "figures.md"
PY = ".venv/bin/python"

BEGIN, END = "<!-- figures:begin -->", "<!-- figures:end -->"
SLOWEST_BEGIN, SLOWEST_END = "<!-- slowest:begin -->", "<!-- slowest:end -->"
COLUMNS = ("figure", "goal", "value", "date", "machine", "commit", "command")

# ------------------------------------------------------------------ what is measured how

#: The calibration's games: four populations of players, each over 2, 3 and 4 players
#: (belief_sweep.py plays ``--games`` for each count, rounded up to a multiple of it) at
#: the budgets the after-game reading was fitted at (Hard 500 iterations a move, Normal
#: 150), of a seed it was not fitted on (scripts/research/reader_fit.py: 101).
CALIBRATION_GAMES, CALIBRATION_PLAYERS = 68, (2, 3, 4)
CALIBRATION_TOTAL = sum(math.ceil(CALIBRATION_GAMES / n) * n for n in CALIBRATION_PLAYERS)
#: Population: (its levels, who they are in words).
POPULATIONS = {
    "open": ("hard-open,normal-open,easy",
             "players who play their clan in the open: Hard and Normal not hiding, Easy"),
    "hiding": ("hard,normal", "players who hide their clan: Hard and Normal"),
    "random": ("random", "random movers"),
    "mix": ("hard,normal,easy,random", "a mix: Hard, Normal, Easy, random movers"),
}
#: What a population's reading must be (the after-game reading's goal): below the blind
#: guess's Brier score for seats and the onlooker, calibrated to this, and no reliability
#: bin more confident than it came true (clans_pi.bots.calibration.Bin.overconfident).
CALIBRATION_ECE = 0.03
#: Where a run keeps its population's games, for a second look (e.g. another reader:
#: scripts/research/hiding_calibration.py --model).
KEPT = "${TMPDIR:-/tmp}/clans-calibration-"
TEST_COMMAND = "./scripts/test -q --durations=10 -p no:cacheprovider"


@dataclass(frozen=True)
class Bench:
    """One run of a command (as typed at the checkout's top, through bash) that measures
    one or more rows; ``read`` turns its stdout, wall time and exit status into a dict."""

    command: str
    read: Callable[[str, float, int], dict]
    slow: bool = False
    timeout_s: float = 15 * 60


def read_json(stdout: str, _seconds: float, returncode: int) -> dict:
    """A benchmark's one JSON object (possibly indented), after whatever came before it."""
    if returncode != 0:
        raise RuntimeError(f"exit status {returncode}")
    start = re.search(r"^\{", stdout, re.MULTILINE)
    if start is None:
        raise RuntimeError("no JSON object in its output")
    return json.JSONDecoder().raw_decode(stdout[start.start():])[0]


def read_suite(stdout: str, seconds: float, returncode: int) -> dict:
    """The suite's wall time, its closing line's counts and the ten slowest tests. A
    failing suite is a figure too (its counts say so); a suite that did not run is not."""
    counts = suite_counts(stdout)
    if not counts:
        raise RuntimeError(f"exit status {returncode} and no pytest summary line")
    return {"seconds": seconds, "counts": counts, "slowest": slowest_tests(stdout)}


BENCHES: dict[str, Bench] = {
    "engine": Bench(f"{PY} -m scripts.bench.engine --compare", read_json),
    "search": Bench(f"{PY} -m scripts.bench.engine --search", read_json),
    "compiled": Bench(f"{PY} -m scripts.bench.engine --compiled --json", read_json),
    "ui": Bench(f"{PY} -m scripts.bench.ui", read_json),
    # The row is the redraw with two phones connected, measured before the phones' load;
    # the load is tests/test_bench_ui.py's small one: with ui.py's default (50 phones, 10
    # rounds, 10,000 bad requests) its load helper overran its 60 s and the run failed here
    # (2026-11-28): the server's guard answers repeated wrong links a second each.
    "ui-phones": Bench(f"{PY} -m scripts.bench.ui --phones --load-phones 4 --load-rounds 1 "
                       f"--load-bad 40", read_json),
    "history": Bench(f"{PY} -m scripts.bench.history", read_json),
    "phones": Bench(f"{PY} -m scripts.bench.phones", read_json),
    "hiding": Bench(f"{PY} -m scripts.bench.hiding", read_json),
    **{f"calibration-{name}": Bench(
        f"{PY} -m scripts.research.belief_sweep play --out /dev/stdout "
        f"--games {CALIBRATION_GAMES} --players {' '.join(map(str, CALIBRATION_PLAYERS))} "
        f"--levels {levels} --budget hard=500 normal=150 --seed 32 "
        f"| tee {KEPT}{name}.jsonl | {PY} -m scripts.research.hiding_calibration --json /dev/stdin",
        read_json, slow=True, timeout_s=40 * 60) for name, (levels, _) in POPULATIONS.items()},
    "test-suite": Bench(TEST_COMMAND, read_suite, slow=True, timeout_s=30 * 60),
    # The suite as it ran before the compiled core: the computers on the Python path (the
    # compiled core's own tests are skipped).
    "test-suite-python": Bench(f"CLANS_PI_CORE=python {TEST_COMMAND}", read_suite, slow=True,
                               timeout_s=30 * 60),
}


def _minutes(seconds: float) -> str:
    m, s = divmod(round(seconds), 60)
    return f"{m} min {s:02d} s" if m else f"{s} s"


def suite_value(d: dict) -> str:
    counts = d["counts"]
    rest = ", ".join(f"{n:,} {word}" for word, n in counts.items() if word != "passed")
    return f"{_minutes(d['seconds'])}, {counts.get('passed', 0):,} passed" + (
        f" ({rest})" if rest else "")


def calibration_value(d: dict) -> str:
    """Seats' and onlooker's Brier scores (blind guess), calibration errors, over-confident
    bins: a population's calibration (hiding_calibration.py's JSON)."""
    def one(kind: str) -> str:
        f = d[kind]
        return (f"{f['brier']:.3f} (blind {f['uniform']:.3f}), error {f['ece']:.3f}, "
                f"{f['overconfident_bins']} bins")
    return f"seats {one('seat')}; onlooker {one('onlooker')}"


def calibration_met(d: dict) -> bool:
    return all(d[k]["brier"] < d[k]["uniform"] and d[k]["ece"] <= CALIBRATION_ECE
               and d[k]["overconfident_bins"] == 0 for k in ("seat", "onlooker"))


def render_reliability(name: str, d: dict, when: str, at: str) -> str:
    """A population's reliability tables (seats, onlooker) in markdown."""
    who = POPULATIONS[name][1]
    lines = [f"{who[:1].upper()}{who[1:]}, {d['games']} games, {when}, commit {at} "
             f"(`--only calibration-{name}`):", "",
             "| reader | probability | readings | series | mean | came true | said more |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for kind, reader in (("seat", "seats"), ("onlooker", "onlooker")):
        for b in d[kind]["reliability"]:
            lines.append(f"| {reader} | {b['lo']:.1f} to {b['hi']:.1f} | {b['count']:,} | "
                         f"{b['series']:,} | {b['mean']:.3f} | {b['observed']:.3f} | "
                         f"{'**yes**' if b['overconfident'] else 'no'} |")
    return "\n".join(lines)


def reliability_markers(name: str) -> tuple[str, str]:
    return f"<!-- reliability-{name}:begin -->", f"<!-- reliability-{name}:end -->"


@dataclass(frozen=True)
class Row:
    """One figure: its id (the anchor), what it is, its goal, the bench that measures it
    and how its value cell is read from that bench's dict; ``met`` (for a figure with a
    goal) says whether the measurement meets it, and the cell says so."""

    id: str
    figure: str
    goal: str
    bench: str
    value: Callable[[dict], str]
    met: Callable[[dict], bool] | None = None

    def cell(self, data: dict) -> str:
        """The value cell: the value, and for a figure with a goal whether it was met."""
        text = self.value(data)
        if self.met is None:
            return text
        return f"{text}, met" if self.met(data) else f"{text}, **missed**"


ROWS: tuple[Row, ...] = (
    Row("engine-games", "Random full games a second, the playout path (3 players, one core)",
        "≥ 3,000 games/s", "engine", lambda d: f"{d['games_per_s']:,} games/s",
        lambda d: d["games_per_s"] >= 3000),
    Row("engine-reference-ratio",
        "The playout path against the plain reference engine (tests/reference_engine.py)",
        "—", "engine",
        lambda d: f"{d['speedup_vs_reference']:g} times "
                  f"({d['reference_dict_of_counters_games_per_s']:g} games/s)"),
    Row("compiled-playouts",
        "The compiled core's playouts a second against the Python path's, one core, side by "
        "side (and its seeded games and searches the same on both)",
        "≥ 20 times, identical", "compiled",
        lambda d: f"{d['speedup_playout']:g} times ({d['playouts_per_s_compiled']:,} against "
                  f"{d['playouts_per_s_python']:,} a second), "
                  f"{'identical' if d['identical'] else '**not identical**'}",
        lambda d: d["speedup_playout"] >= 20 and d["identical"]),
    Row("compiled-search",
        "The compiled core's search iterations a second against the Python path's, one core, "
        "Hard and Normal (the lower counts)",
        "≥ 10 times", "compiled",
        lambda d: f"{d['speedup_search']:g} times (Hard "
                  f"{d['search_iterations_per_s_compiled']['hard']:,} against "
                  f"{d['search_iterations_per_s_python']['hard']:,}, Normal "
                  f"{d['search_iterations_per_s_compiled']['normal']:,} against "
                  f"{d['search_iterations_per_s_python']['normal']:,} a second)",
        lambda d: d["speedup_search"] >= 10 and d["identical"]),
    Row("search-iterations", "Hard's search iterations a second, one worker", "—", "search",
        lambda d: f"{d['search_iterations_per_s_1']:,} a second "
                  f"(Normal {d['search_normal_iterations_per_s_1']:,})"),
    Row("search-parallel", "The speed-up of two search workers over one", "≥ 1.6", "search",
        lambda d: f"{d['search_parallel_speedup']:.2f} ({d['search_iterations_per_s_2']:,} "
                  f"against {d['search_iterations_per_s_1']:,} iterations a second)",
        lambda d: d["search_parallel_speedup"] >= 1.6),
    Row("hiding-reading", "The hiding reading of a seat's legal moves, ms per move (median)",
        "—", "search",
        lambda d: f"{d['hiding_reading_ms_median']:g} ms (max {d['hiding_reading_ms_max']:g})"),
    Row("ui-redraw", "Full redraw of the play screen at 800x480", "≤ 4 ms", "ui",
        lambda d: f"{d['full_redraw_ms']['800x480']:g} ms",
        lambda d: d["full_redraw_ms"]["800x480"] <= 4),
    Row("ui-idle-cpu", "Idle CPU of the game on its play screen, % of a core", "≤ 1 %", "ui",
        lambda d: f"{d['idle_cpu_percent']:g} %", lambda d: d["idle_cpu_percent"] <= 1),
    Row("ui-first-frame", "Start to the first frame (the start screen)", "≤ 1.5 s", "ui",
        lambda d: f"{d['first_frame_s']:g} s", lambda d: d["first_frame_s"] <= 1.5),
    Row("ui-memory", "Peak memory of the game (resident)", "≤ 120 MB", "ui",
        lambda d: f"{d['peak_rss_mb']:g} MB", lambda d: d["peak_rss_mb"] <= 120),
    Row("ui-redraw-phones", "Full redraw at 800x480 with two phones connected", "≤ 4 ms",
        "ui-phones", lambda d: f"{d['phones']['two_phones']['full_redraw_ms']['800x480']:g} ms",
        lambda d: d["phones"]["two_phones"]["full_redraw_ms"]["800x480"] <= 4),
    Row("history-open", "Past games opened with 1,000 games, the first time (no index yet)",
        "< 1 s", "history", lambda d: f"{d['open_list_cold_s']:g} s",
        lambda d: d["open_list_cold_s"] < 1),
    Row("history-cached", "The same at a later start (the index cached)", "—", "history",
        lambda d: f"{d['open_list_cold_cached_s']:g} s"),
    Row("phones-press", "A phone's press-to-colour over loopback, two phones, median",
        "< 100 ms", "phones",
        lambda d: f"{d['press_to_colour_ms']['median']:g} ms "
                  f"(95th percentile {d['press_to_colour_ms']['p95']:g})",
        lambda d: d["press_to_colour_ms"]["median"] < 100),
    Row("hiding-analysis",
        "After-game reading of a 4-player 60-move game, here (and a Pi 4's estimate)",
        "< 5 s on a Pi", "hiding",
        lambda d: f"{d['per_move_ms'] * 60 / 1000:.3f} s (Pi 4: {d['pi4_60_moves_s']:g} s)",
        lambda d: d["pi4_60_moves_s"] < 5),
    *(Row(f"calibration-{name}",
          f"After-game reading of {who} ({CALIBRATION_TOTAL} games): Brier score of each "
          "other seat's and an onlooker's readings after every move, calibration error, "
          "bins that said more than came true",
          f"Brier under the blind guess's, error ≤ {CALIBRATION_ECE:g}, no such bin",
          f"calibration-{name}", calibration_value, calibration_met)
      for name, (_, who) in POPULATIONS.items()),
    Row("test-suite", "./scripts/test, the whole suite, wall time and tests passed",
        "≤ 5 min", "test-suite", suite_value, lambda d: d["seconds"] <= 5 * 60),
    Row("test-suite-python",
        "The same on the Python path (the computers as before the compiled core; its own "
        "tests skipped)", "—", "test-suite-python", suite_value),
)
ROW_IDS = tuple(row.id for row in ROWS)

# ------------------------------------------------------------------ pytest's output


def suite_counts(stdout: str) -> dict[str, int]:
    """The counts of pytest's closing line ("1,234 passed, 2 skipped in 300.1s"), in its
    order; {} when there is none."""
    for line in reversed(stdout.splitlines()):
        line = line.strip("= ")
        if re.search(r" in [\d.]+s\b", line) and re.match(r"\d+ \w+", line):
            return {word: int(n) for n, word in re.findall(r"(\d+) ([a-z]+)", line)}
    return {}


def slowest_tests(stdout: str) -> list[tuple[float, str, str]]:
    """(seconds, phase, test id) of pytest's ``--durations`` list, slowest first."""
    out, inside = [], False
    for line in stdout.splitlines():
        if re.match(r"=+ slowest (\d+ )?durations =+", line):
            inside = True
            continue
        if inside:
            m = re.match(r"\s*([\d.]+)s\s+(setup|call|teardown)\s+(\S.*?)\s*$", line)
            if m:
                out.append((float(m[1]), m[2], m[3]))
            elif out or line.startswith("="):
                break
    return out


# ------------------------------------------------------------------ the page


def machine() -> str:
    return (f"{platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}")


def commit() -> str:
    """The short commit measured, with ``+changes`` when the tree differs from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    # The page itself is not a change to what is measured (it is written as rows come in).
    changes = git("status", "--porcelain", "--", ".", f":!{FIGURES.relative_to(ROOT)}")
    return git("rev-parse", "--short", "HEAD") + ("+changes" if changes else "")


def split_cells(line: str) -> list[str]:
    """A table line's cells, ``\\|`` kept inside them."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def table_line(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def between(text: str, begin: str, end: str) -> tuple[int, int]:
    """Where the text between the markers starts and ends."""
    a, b = text.find(begin), text.find(end)
    if a < 0 or b < a:
        raise ValueError(f"{begin} ... {end} not found in order")
    return a + len(begin), b


def parse_rows(text: str) -> dict[str, list[str]]:
    """The table's rows by id (their cells as written)."""
    a, b = between(text, BEGIN, END)
    rows = {}
    for line in text[a:b].splitlines():
        cells = split_cells(line) if line.startswith("|") else []
        m = re.match(r'<a id="([^"]+)"></a>', cells[0]) if cells else None
        if m:
            rows[m[1]] = cells
    return rows


def row_cells(row: Row, value: str, when: str, where: str, at: str, command: str) -> list[str]:
    code = "`" + command.replace("|", "\\|") + "`"
    return [f'<a id="{row.id}"></a>{row.figure}', row.goal, value, when, where, at, code]


def not_measured(row: Row) -> list[str]:
    return row_cells(row, "not measured yet", "—", "—", "—", BENCHES[row.bench].command)


def render_table(old: dict[str, list[str]], new: dict[str, list[str]]) -> str:
    lines = [table_line(list(COLUMNS)), table_line(["---"] * len(COLUMNS))]
    for row in ROWS:
        cells = new.get(row.id) or old.get(row.id) or not_measured(row)
        lines.append(table_line(cells))
    return "\n".join(lines)


def render_slowest(slowest: list[tuple[float, str, str]], when: str, at: str) -> str:
    lines = [f"The ten slowest tests of `{TEST_COMMAND}`, {when}, commit {at}:", ""]
    lines += [f"{k}. {s:.2f} s `{test}` ({phase})"
              for k, (s, phase, test) in enumerate(slowest, start=1)]
    return "\n".join(lines)


def replace_between(text: str, begin: str, end: str, body: str) -> str:
    a, b = between(text, begin, end)
    return text[:a] + "\n" + body + "\n" + text[b:]


def update(text: str, new: dict[str, list[str]], slowest: str | None = None) -> str:
    """``text`` (the page) with the rows of ``new`` (by id) measured, the others as they
    were, and the slowest list replaced when given; text outside the markers kept."""
    text = replace_between(text, BEGIN, END, render_table(parse_rows(text), new))
    if slowest is not None:
        text = replace_between(text, SLOWEST_BEGIN, SLOWEST_END, slowest)
    return text


TEMPLATE = f"""# Measured figures

The project's measured figures, one row each: what was measured, its goal, the value, the
date, the machine, the commit (`+changes`: with uncommitted changes) and the command that
measured it, from the checkout's top. README and the guides link to a row by its id
(`figures.md#ui-redraw`) and copy no figure.

Nobody edits the table or the list of slowest tests by hand: both are written by
`.venv/bin/python -m scripts.bench.figures` (every row; `--only ID ...` for some,
`--skip-slow` without the test suite and the calibration, `--list` for the ids and their
commands). A figure measured again replaces its row; the others keep theirs. The machine
may be shared and busy: the machine column and the date say where and when.

Figures that take hours, the computer players' strength in tournaments and the image's
build and boot, are not here: they are in [the journal](journal.md), each with its date,
commit and command.

{BEGIN}
{END}

## The slowest tests

{SLOWEST_BEGIN}
{SLOWEST_END}

<a id="calibration-populations"></a>
## How honest the after-game reading is, per population

Each population's reliability table: the readings of every other seat (4 clans a player
may hold) and of an onlooker (5) after every move, binned by the probability given to a
clan, with how often that clan was the true one. One reader's readings of one player
through one game are one *series*; a bin *said more* than came true when its mean is further
from the blind guess than the 95 % interval of how often it came true over its series
allows (a clan named more surely than it came true, or ruled out more surely than it was
wrong).

""" + "\n\n".join(f"{b}\n{e}" for b, e in map(reliability_markers, POPULATIONS)) + "\n"

# ------------------------------------------------------------------ running


def run(command: str, timeout_s: float) -> tuple[str, float, int]:
    """``command`` through bash (pipefail) at the checkout's top: stdout, wall time, exit
    status. Its stderr passes through. Past ``timeout_s`` its process group is ended."""
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
    start = time.monotonic()
    proc = subprocess.Popen(["bash", "-o", "pipefail", "-c", command], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        stdout, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate()
        raise RuntimeError(f"stopped after {timeout_s / 60:g} min") from None
    return stdout, time.monotonic() - start, proc.returncode


def selected(only: list[str] | None, skip_slow: bool) -> list[Row]:
    rows = [r for r in ROWS if only is None or r.id in only]
    return [r for r in rows if not (skip_slow and BENCHES[r.bench].slow)]


def measure(rows: list[Row], page: Path = FIGURES,
            runner: Callable[[str, float], tuple[str, float, int]] = run) -> list[str]:
    """Run each bench of ``rows`` once and write its rows into ``page`` as soon as it is
    done; return the benches that failed."""
    failed = []
    for name in dict.fromkeys(r.bench for r in rows):
        bench = BENCHES[name]
        print(f"figures: {name}: {bench.command}", file=sys.stderr, flush=True)
        at, when = commit(), date.today().isoformat()
        try:
            data = bench.read(*runner(bench.command, bench.timeout_s))
            new = {r.id: row_cells(r, r.cell(data), when, machine(), at, bench.command)
                   for r in rows if r.bench == name}
        except (RuntimeError, KeyError, TypeError, ValueError) as e:
            print(f"figures: {name} failed ({e!r}); its rows are left as they were",
                  file=sys.stderr)
            failed.append(name)
            continue
        slowest = render_slowest(data["slowest"], when, at) \
            if "slowest" in data and name == "test-suite" else None  # the suite as it runs
        text = page.read_text(encoding="utf-8") if page.exists() else TEMPLATE
        text = update(text, new, slowest)
        population = name.removeprefix("calibration-")
        if name.startswith("calibration-") and population in POPULATIONS:
            text = replace_between(text, *reliability_markers(population),
                                   render_reliability(population, data, when, at))
        page.write_text(text, encoding="utf-8")
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="ID", choices=ROW_IDS,
                        help="measure just these rows")
    parser.add_argument("--skip-slow", action="store_true",
                        help="leave out the test suite and the calibration")
    parser.add_argument("--list", action="store_true", help="print the ids and commands")
    args = parser.parse_args(argv)
    if args.list:
        for row in ROWS:
            print(f"{row.id:24} {BENCHES[row.bench].command}")
        return 0
    if not (ROOT / PY).exists():
        print(f"figures: no {PY} in {ROOT}: ./scripts/test or ./scripts/play makes it",
              file=sys.stderr)
        return 1
    start = time.monotonic()
    failed = measure(selected(args.only, args.skip_slow))
    print(f"figures: {FIGURES.relative_to(ROOT)} written in "
          f"{_minutes(time.monotonic() - start)}"
          + (f"; failed: {', '.join(failed)}" if failed else ""), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
