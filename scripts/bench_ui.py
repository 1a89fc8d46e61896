#!/usr/bin/env python3
"""Benchmark the touchscreen UI: redraw times, idle CPU, start-up time and memory.

Prints one JSON object. Everything runs under SDL's dummy video and audio drivers (set here
unless already set), so the figures are the drawing and Python work, not a GPU's or a
panel's. The game shown is a mid-game 4-player position: a deal with ``--seed`` and
``--moves`` random moves.

- ``full_redraw_ms``: one full redraw of the play screen (``App.redraw`` with ``full`` set,
  ``Display.present`` included) at 800x480 and 1920x1080; median of ``--rounds`` redraws
  after a warm-up.
- ``partial_redraw_ms``: the redraw after a finger selects a movable territory (only the
  board and the panel header are drawn and shown), checked to be partial; median of
  ``--rounds``, at both sizes. ``select_ms`` times the whole loop turn for that touch
  (the queued FINGERDOWN handled, then the partial redraw).
- ``idle_cpu_percent`` and ``peak_rss_mb``: ``clans-pi play --load`` on a saved game, left
  alone once it has drawn; its CPU time (utime + stime from /proc/PID/stat) over
  ``--idle-seconds``, and its peak resident memory (VmHWM, MiB) before it is stopped.
- ``first_frame_s`` / ``first_frame_play_s``: wall time from starting
  ``clans-pi play --first-frame`` (the start screen; with ``--load``, the play screen) to
  its exit; median of ``--starts`` runs.

Each figure is a median, since a shared machine is noisy. Targets (README): full redraw
<= 4 ms at 800x480, idle CPU <= 1 %, first frame <= 1.5 s, peak RSS <= 120 MB; this script
only reports them, it does not fail on a missed one. Linux only (/proc).

Usage: .venv/bin/python scripts/bench_ui.py [--rounds 200] [--idle-seconds 10] [--starts 5]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DRIVERS = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
for _name, _value in DRIVERS.items():
    os.environ.setdefault(_name, _value)
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from clans_pi.rules.board import Board, load_default_board  # noqa: E402
from clans_pi.rules.epochs import EpochChart, load_default_chart  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402
from clans_pi.session import Seat, Session  # noqa: E402
from clans_pi.ui.app import App  # noqa: E402
from clans_pi.ui.display import Display  # noqa: E402

NAMES = ("Anna", "Ben", "Cleo", "Dev")
SIZES = ((800, 480), (1920, 1080))
WARMUP = 5
SETTLE_TIMEOUT_S = 30.0  # the idle process must have drawn and calmed down by then


def mid_game(board: Board, chart: EpochChart, *, seed: int, moves: int) -> Session:
    """A 4-player game after ``moves`` random moves (fewer if it ends first)."""
    rng = random.Random(seed)
    state = deal(board, NAMES, rng, chart)
    for _ in range(moves):
        if state.is_over:
            break
        state.play(state.random_legal_move(rng.random))
    if state.is_over:
        raise SystemExit(f"the game with seed {seed} ends before {moves} moves; pick another")
    return Session(state, [Seat(name) for name in state.players])  # turn order is a table order


def ms(seconds: list[float]) -> float:
    return round(statistics.median(seconds) * 1000, 3)


def label(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


# ------------------------------------------------------------------ in-process redraws


def territory_point(app: App, t: int) -> tuple[int, int]:
    """A point of territory ``t`` on the play screen that hit-tests to ``t``."""
    bv = app.screen.bv  # type: ignore[union-attr]
    ax, ay = bv.anchors[t]
    if bv.territory_at((ax, ay)) == t:
        return round(ax), round(ay)
    xs = [p[0] for p in bv.polygons[t]]
    ys = [p[1] for p in bv.polygons[t]]
    for y in range(int(min(ys)), int(max(ys)) + 1, 2):
        for x in range(int(min(xs)), int(max(xs)) + 1, 2):
            if bv.territory_at((x, y)) == t:
                return x, y
    raise RuntimeError(f"territory {t} has no point that hits it")


def selectable_pair(session: Session) -> list[int]:
    """Two movable territories neither of which is a legal target of the other (or one,
    selected again and again, if there is no such pair)."""
    movable = sorted(session.movable())
    if not movable:
        raise RuntimeError("no movable territory in the benchmark position")
    for a in movable:
        for b in movable:
            if a < b and b not in session.legal_targets(a) and a not in session.legal_targets(b):
                return [a, b]
    return movable[:1]


def post_finger(app: App, kind: int, pos: tuple[int, int]) -> None:
    w, h = app.size  # rotate 0: the window is the logical picture
    pygame.event.post(pygame.event.Event(kind, x=pos[0] / w, y=pos[1] / h, dx=0.0, dy=0.0,
                                         finger_id=0, touch_id=1, pressure=1.0))


def time_redraws(session: Session, board: Board, chart: EpochChart, size: tuple[int, int],
                 rounds: int) -> tuple[float, float, float]:
    """Median full redraw, partial redraw (a territory selected) and select loop turn, in ms,
    on a real dummy-driver display of ``size``."""
    display = Display(size)
    try:
        # A clock that stands still: no long press fires however slow the machine is.
        app = App(board, chart, display=display, rng=random.Random(1), clock=lambda: 1000)
        app.begin(session, peeks=False)
        pygame.event.clear()
        app.pump()

        full: list[float] = []
        for i in range(WARMUP + rounds):
            app.full = True
            start = time.perf_counter()
            app.redraw()
            if i >= WARMUP:
                full.append(time.perf_counter() - start)

        # Alternate between two movable territories: a finger down selects one (a partial
        # redraw of the board and the panel header); its release redraws fully (untimed).
        # Neither may be a target of the other, or the second touch would move the huts.
        points = [territory_point(app, t) for t in selectable_pair(session)]
        partial: list[float] = []
        select: list[float] = []
        for i in range(WARMUP + rounds):
            pos = points[i % len(points)]
            # The redraw alone: handle the touch, then time the redraw it asked for.
            post_finger(app, pygame.FINGERDOWN, pos)
            for ev in pygame.event.get():
                app.handle(ev)
            if app.full or not app.damage:
                raise RuntimeError("selecting a territory did not ask for a partial redraw")
            before = app.partial_frames
            start = time.perf_counter()
            app.redraw()
            took = time.perf_counter() - start
            if app.partial_frames != before + 1:
                raise RuntimeError("the redraw after selecting a territory was not partial")
            post_finger(app, pygame.FINGERUP, pos)
            app.pump()
            # The whole loop turn: the queued touch handled and the partial redraw.
            post_finger(app, pygame.FINGERDOWN, pos)
            before = app.partial_frames
            start = time.perf_counter()
            app.pump()
            took_turn = time.perf_counter() - start
            if app.partial_frames != before + 1:
                raise RuntimeError("the loop turn after selecting a territory was not partial")
            post_finger(app, pygame.FINGERUP, pos)
            app.pump()
            if i >= WARMUP:
                partial.append(took)
                select.append(took_turn)
        return ms(full), ms(partial), ms(select)
    finally:
        display.close()


# ------------------------------------------------------------------ child processes


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(DRIVERS)
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    return env


def play_command(*extra: str) -> list[str]:
    return [sys.executable, "-m", "clans_pi.cli", "play", *extra]


def cpu_ticks(pid: int) -> int:
    """utime + stime of ``pid``, in clock ticks."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2:].split()  # the command name may hold spaces
    return int(fields[11]) + int(fields[12])  # fields 14 and 15 of proc(5)


def status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {key} in /proc/{pid}/status")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM (SDL turns it into a quit), then SIGKILL if it does not go; always reaped."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def idle(save: Path, seconds: float) -> tuple[float, float, int]:
    """CPU % of the game left idle on its play screen, its peak RSS (MiB) and its pid."""
    hz = os.sysconf("SC_CLK_TCK")
    proc = subprocess.Popen(play_command("--load", str(save)), cwd=ROOT, env=child_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        # Drawn and settled: its CPU time stops growing (at most 2 ticks in half a second;
        # a busy start-up uses all 50).
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        last = cpu_ticks(proc.pid)
        time.sleep(1.0)
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
                raise RuntimeError(f"the game exited with {proc.returncode}: {err.strip()}")
            now = cpu_ticks(proc.pid)
            if now - last <= 2:
                break
            if time.monotonic() > deadline:
                raise RuntimeError("the game never went idle")
            last = now
            time.sleep(0.5)
        start_ticks, start = cpu_ticks(proc.pid), time.monotonic()
        time.sleep(seconds)
        end_ticks, end = cpu_ticks(proc.pid), time.monotonic()
        if proc.poll() is not None:
            raise RuntimeError(f"the game exited with {proc.returncode} while idle")
        peak_kb = status_kb(proc.pid, "VmHWM")
        percent = (end_ticks - start_ticks) / hz / (end - start) * 100
        return round(percent, 2), round(peak_kb / 1024, 1), proc.pid
    finally:
        stop(proc)
        if proc.stderr is not None:
            proc.stderr.close()


def first_frame(extra: list[str], starts: int) -> float:
    """Median wall time (s) from starting ``clans-pi play --first-frame`` to its exit."""
    times: list[float] = []
    for _ in range(starts):
        start = time.perf_counter()
        proc = subprocess.run(play_command("--first-frame", *extra), cwd=ROOT, env=child_env(),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                              check=False)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            err = proc.stderr.decode(errors="replace").strip()
            raise RuntimeError(f"clans-pi play --first-frame failed: {err}")
    return round(statistics.median(times), 3)


# ------------------------------------------------------------------ main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200,
                        help="timed redraws per size (median taken)")
    parser.add_argument("--idle-seconds", type=float, default=10.0,
                        help="how long the idle game's CPU time is measured")
    parser.add_argument("--starts", type=int, default=5,
                        help="timed starts to the first frame (median taken)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the benchmark deal")
    parser.add_argument("--moves", type=int, default=30, help="random moves before measuring")
    args = parser.parse_args()
    if args.rounds < 1 or args.starts < 1 or args.idle_seconds <= 0:
        parser.error("--rounds and --starts must be at least 1, --idle-seconds above 0")

    board, chart = load_default_board(), load_default_chart()
    session = mid_game(board, chart, seed=args.seed, moves=args.moves)

    full: dict[str, float] = {}
    partial: dict[str, float] = {}
    select: dict[str, float] = {}
    for size in SIZES:
        full[label(size)], partial[label(size)], select[label(size)] = time_redraws(
            session, board, chart, size, args.rounds)

    with tempfile.TemporaryDirectory(prefix="clans-bench-ui-") as tmp:
        save = Path(tmp) / "saved.json"
        save.write_text(json.dumps(session.to_json()))
        idle_cpu, peak_rss, idle_pid = idle(save, args.idle_seconds)
        first_start = first_frame([], args.starts)
        first_play = first_frame(["--load", str(save)], args.starts)

    out: dict[str, object] = {
        "full_redraw_ms": full,
        "partial_redraw_ms": partial,
        "select_ms": select,
        "idle_cpu_percent": idle_cpu,
        "peak_rss_mb": peak_rss,
        "first_frame_s": first_start,
        "first_frame_play_s": first_play,
        "idle_pid": idle_pid,
        "position": f"4 players, deal seed {args.seed}, {args.moves} random moves, play screen",
        "rounds": args.rounds,
        "idle_seconds": args.idle_seconds,
        "starts": args.starts,
        "video_driver": os.environ["SDL_VIDEODRIVER"],
        "python": platform.python_version(),
        "pygame": pygame.version.ver,
        "sdl": ".".join(str(n) for n in pygame.get_sdl_version()),
        "machine": platform.machine(),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
