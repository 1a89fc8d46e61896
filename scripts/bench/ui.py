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

With ``--phones``, the same figures with phone seats, under ``phones``:

- ``two_phones``: the redraws while the game's phone server (``Phones``, on its thread in
  this process, as in the game) has two phones connected and idle, from a process of
  their own (``python -m clans_pi.phones.load hold``); and ``idle_cpu_percent`` of
  ``clans-pi play`` on the same saved game with two phone seats, both phones connected.
- ``under_load``: the redraws while the load of ``tests/test_phones_load.py`` runs against
  that server from another process (``python -m clans_pi.phones.load load``: ``--load-phones``
  phones reconnecting for ``--load-rounds`` rounds, then ``--load-bad`` malformed or
  wrong-token requests among the seats' own traffic); the redraws are timed in batches of
  a tenth of ``--rounds`` for as long as the load runs (``batches``: those that ended
  while it still ran; medians of their medians). ``cpu_percent``: the CPU ``clans-pi play``
  spends while the same load runs against its server (not idle: it answers the load).
  Here the game's loop does not poll the phones' events (a flood of second phones would
  put "Anna's phone again?" on the screen): the figures are the server's cost.

Each figure is a median, since a shared machine is noisy. Targets (docs/figures.md): full redraw
<= 4 ms at 800x480, idle CPU <= 1 %, first frame <= 1.5 s, peak RSS <= 120 MB, the same
with two phones connected; this script only reports them, it does not fail on a missed
one. Linux only (/proc). Phones talk to 127.0.0.1 only.

Usage: .venv/bin/python scripts/bench/ui.py [--rounds 200] [--idle-seconds 10] [--starts 5]
           [--phones [--load-phones 50] [--load-rounds 10] [--load-bad 10000]]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DRIVERS = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
for _name, _value in DRIVERS.items():
    os.environ.setdefault(_name, _value)
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from clans_pi.phones.devices import Phones  # noqa: E402
from clans_pi.phones.load import LOOPBACK  # noqa: E402
from clans_pi.phones.tokens import SeatTokens  # noqa: E402
from clans_pi.rules.board import Board, load_default_board  # noqa: E402
from clans_pi.rules.epochs import EpochChart, load_default_chart  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402
from clans_pi.saving.store import GameStore  # noqa: E402
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
    return app.screen.bv.touch_point(t)  # type: ignore[union-attr]


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
                 rounds: int, pace_s: float = 0.0) -> tuple[float, float, float]:
    """Median full redraw, partial redraw (a territory selected) and select loop turn, in ms,
    on a real dummy-driver display of ``size``. ``pace_s``: a pause after each timed
    redraw, as the game's loop has between frames (0: back to back)."""
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
            time.sleep(pace_s)

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
            time.sleep(pace_s)
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


def settle(proc: subprocess.Popen[bytes]) -> None:
    """Until the game has drawn and settled: its CPU time stops growing (at most 2 ticks in
    half a second; a busy start-up uses all 50)."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    last = cpu_ticks(proc.pid)
    time.sleep(1.0)
    while True:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise RuntimeError(f"the game exited with {proc.returncode}: {err.strip()}")
        now = cpu_ticks(proc.pid)
        if now - last <= 2:
            return
        if time.monotonic() > deadline:
            raise RuntimeError("the game never went idle")
        last = now
        time.sleep(0.5)


def cpu_percent(proc: subprocess.Popen[bytes], seconds: float) -> float:
    """CPU % of ``proc`` over the next ``seconds``."""
    start_ticks, start = cpu_ticks(proc.pid), time.monotonic()
    time.sleep(seconds)
    end_ticks, end = cpu_ticks(proc.pid), time.monotonic()
    if proc.poll() is not None:
        raise RuntimeError(f"the game exited with {proc.returncode} while idle")
    return round((end_ticks - start_ticks) / os.sysconf("SC_CLK_TCK") / (end - start) * 100, 2)


@contextmanager
def game(*extra: str):  # type: ignore[no-untyped-def]
    """``clans-pi play`` with ``extra``, stopped and reaped at the end."""
    proc = subprocess.Popen(play_command(*extra), cwd=ROOT, env=child_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        yield proc
    finally:
        stop(proc)
        if proc.stderr is not None:
            proc.stderr.close()


def idle(save: Path, seconds: float) -> tuple[float, float, int]:
    """CPU % of the game left idle on its play screen, its peak RSS (MiB) and its pid."""
    with game("--load", str(save)) as proc:
        settle(proc)
        percent = cpu_percent(proc, seconds)
        peak_kb = status_kb(proc.pid, "VmHWM")
        return percent, round(peak_kb / 1024, 1), proc.pid


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


# ------------------------------------------------------------------ phones

PHONE_SEATS = (0, 1)


@contextmanager
def phone_helper(what: str, base: str, tokens: dict[int, str], *extra: str):  # type: ignore[no-untyped-def]
    """``python -m clans_pi.phones.load`` in a process of its own (its CPU is not the
    game's): "hold" keeps a phone per seat connected until this ends; "load" runs the
    load once and says what it did (``helper.summary``)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "clans_pi.phones.load", what, base,
         *(f"{seat}={token}" for seat, token in tokens.items()), *extra],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        said = proc.stdout.readline().strip()
        if said not in ("connected", "started"):
            raise RuntimeError(f"the phones' {what} did not start: {said!r}")
        yield proc
        proc.stdin.close()
        if what == "load":
            proc.summary = json.loads(proc.stdout.readline())  # type: ignore[attr-defined]
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


#: Under the phones' load the redraws come at an animation's pace, a frame every 16 ms or
#: so, as in the game (whose loop sleeps between frames): back to back, the drawing thread
#: holds Python's lock nearly all the time and the server's thread, which needs it for each
#: of the 10,000 requests, waits its turn (a real phone's hold then took over 10 s here).
LOADED_PACE_S = 0.012


def redraws(session: Session, board: Board, chart: EpochChart,
            rounds: int, pace_s: float = 0.0) -> dict[str, dict[str, float]]:
    """The three redraw figures at each size (as without phones)."""
    out: dict[str, dict[str, float]] = {"full_redraw_ms": {}, "partial_redraw_ms": {},
                                        "select_ms": {}}
    for size in SIZES:
        figures = time_redraws(session, board, chart, size, rounds, pace_s)
        for key, value in zip(out, figures, strict=True):
            out[key][label(size)] = value
    return out


def phone_redraws(session: Session, board: Board, chart: EpochChart, rounds: int,
                  load_args: list[str]) -> tuple[dict[str, object], dict[str, object]]:
    """The redraws with the game's phone server in this process: two phones connected;
    then under the load, timed again and again until it is over (medians of all)."""
    phones = Phones(PHONE_SEATS, (LOOPBACK, 0))
    phones.keep_links({})  # this table's own links, as a deal places them: none waits
    # The load's malformed requests make aiohttp say one error line each: not here.
    logging.getLogger("clans_pi.phones").setLevel(logging.CRITICAL)
    try:
        for seat in PHONE_SEATS:
            phones.clans[seat] = session.private(seat).own_clan
        base, tokens = f"http://{LOOPBACK}:{phones.port}", dict(phones.hub.tokens.tokens)
        with phone_helper("hold", base, tokens):
            two: dict[str, object] = dict(redraws(session, board, chart, rounds))
        # Under the load: batches of a tenth of the rounds, kept while the load still ran
        # when they ended (the first one in any case: a load too short to cover it).
        runs: list[dict[str, dict[str, float]]] = []
        batch = max(5, rounds // 10)
        with phone_helper("load", base, tokens, *load_args) as load:
            while True:
                figures = redraws(session, board, chart, batch, LOADED_PACE_S)
                if runs and load.poll() is not None:
                    break
                runs.append(figures)
                if load.poll() is not None:
                    break
        loaded: dict[str, object] = {
            key: {size: round(statistics.median(r[key][size] for r in runs), 3)
                  for size in runs[0][key]} for key in runs[0]}
        loaded["batches"] = len(runs)
        loaded["load"] = load.summary  # type: ignore[attr-defined]
        return two, loaded
    finally:
        phones.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def wait_serving(port: int, token: str, proc: subprocess.Popen[bytes]) -> None:
    """Until the game's phone server answers ``token``'s page: it listens first and takes
    the saved game's links a moment later (a phone that comes in between is told its link
    is wrong and tries again by itself; a helper started then would stop)."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"http://{LOOPBACK}:{port}/p/{token}", timeout=2):
                return
        except (OSError, urllib.error.HTTPError):
            time.sleep(0.2)
    raise RuntimeError(f"the game's phone server never served its links on {LOOPBACK}:{port}")


def phone_idle(session: Session, tmp: Path, seconds: float,
               load_args: list[str]) -> tuple[float, dict[str, object]]:
    """``clans-pi play`` on the saved game with two phone seats (their links kept with
    the save): its idle CPU % with both phones connected; then the CPU % it spends while
    the load runs against its server, and what the load did."""
    port = free_port()
    tokens = SeatTokens.new(PHONE_SEATS)
    session.phone_links = tokens.to_json()
    GameStore(tmp / "saved").save(session)
    session.phone_links = {}
    config = tmp / "phones.toml"
    config.write_text("[seats]\n" + "".join(f'{s + 1} = "phone"\n' for s in PHONE_SEATS)
                      + f'[phones]\nlisten = "{LOOPBACK}:{port}"\n')
    base = f"http://{LOOPBACK}:{port}"
    with game("--load", str(tmp / "saved" / "game.json"), "--config", str(config),
              "--state-dir", str(tmp / "state")) as proc:
        wait_serving(port, next(iter(tokens.tokens.values())), proc)
        with phone_helper("hold", base, tokens.tokens):
            settle(proc)
            idle_cpu = cpu_percent(proc, seconds)
        start_ticks, start = cpu_ticks(proc.pid), time.monotonic()
        with phone_helper("load", base, tokens.tokens, *load_args) as load:
            load.wait(timeout=120)
        took = time.monotonic() - start
        if proc.poll() is not None:
            raise RuntimeError(f"the game exited with {proc.returncode} under the load")
        busy = (cpu_ticks(proc.pid) - start_ticks) / os.sysconf("SC_CLK_TCK") / took * 100
        return idle_cpu, {"cpu_percent": round(busy, 2), "seconds": round(took, 2),
                          "load": load.summary}  # type: ignore[attr-defined]


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
    parser.add_argument("--phones", action="store_true",
                        help="the same with two phones connected, and under the phones' load")
    parser.add_argument("--load-phones", type=int, default=50,
                        help="phones reconnecting in the load")
    parser.add_argument("--load-rounds", type=int, default=10, help="their rounds each")
    parser.add_argument("--load-bad", type=int, default=10_000,
                        help="malformed or wrong-token requests in the load")
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
        phones: dict[str, object] = {}
        if args.phones:
            load_args = ["--phones", str(args.load_phones), "--rounds", str(args.load_rounds),
                         "--bad", str(args.load_bad)]
            two, loaded = phone_redraws(session, board, chart, args.rounds, load_args)
            two["idle_cpu_percent"], game_load = phone_idle(session, Path(tmp),
                                                            args.idle_seconds, load_args)
            loaded["game"] = game_load
            phones = {"two_phones": two, "under_load": loaded}

    out: dict[str, object] = {
        "full_redraw_ms": full,
        "partial_redraw_ms": partial,
        "select_ms": select,
        "idle_cpu_percent": idle_cpu,
        "peak_rss_mb": peak_rss,
        "first_frame_s": first_start,
        "first_frame_play_s": first_play,
        "idle_pid": idle_pid,
        **({"phones": phones} if phones else {}),
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
