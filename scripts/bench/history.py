#!/usr/bin/env python3
"""Benchmark the past games: a thousand finished games' records opening the list.

Prints one JSON object. ``--games`` random finished games of 2 to 4 players (seeded) are
kept as records in a temporary state directory, as the table keeps them (with their table
and the computers' guesses), then:

- ``index_s``: the index's first pass (``History.refresh`` on a new History, no cache:
  every record read and replayed through the engine), as at the game's first start.
  ``index_cached_s``: the same at a later start, with the index's cache
  (``past-games-index.json``) the last run kept: no record replayed.
- ``refresh_s``: the pass when the list opens again and nothing changed (each file's size
  and time checked).
- ``open_list_cold_s``: the Past games button on a table whose index was not read yet and
  has no cache: the index's first pass, the list laid out and drawn at 800x480 (SDL's
  dummy driver). ``open_list_cold_cached_s``: the same with the cache.
  ``open_list_s``: the same once the index was read (at start, in the background).
- ``scroll_frame_ms``: one drag step of the list (a row further) and its redraw.
- ``scoreboard_s``: the scoreboard (all time and the last 30 days) over every game.
- ``cli_history_s``: ``clans-pi history --json`` on that state directory, start to exit.

Each figure is the median of ``--rounds`` runs, since a shared machine is noisy. Target:
a thousand records open the list in under a second on this machine.

Usage: .venv/bin/python scripts/bench/history.py [--games 1000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from clans_pi.history import History, recent_since, scoreboard  # noqa: E402
from clans_pi.rules.board import load_default_board  # noqa: E402
from clans_pi.rules.epochs import load_default_chart  # noqa: E402
from clans_pi.rules.record import to_record  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402

FAMILY = (("Anna", "fox", "human"), ("Ben", "bear", "human"), ("Cleo", "cat", "human"),
          ("Maximilianne", "otter", "human"), ("Owl (Hard)", "owl", "hard"),
          ("Hare (Normal)", "hare", "normal"))


def make_records(records: Path, games: int, seed: int) -> None:
    """``games`` finished random games as the store writes them, one every 3 hours back."""
    board, chart = load_default_board(), load_default_chart()
    rng = random.Random(seed)
    now = datetime.now().astimezone()
    records.mkdir(parents=True)
    for k in range(games):
        seats = rng.sample(FAMILY, 2 + k % 3)
        state = deal(board, [s[0] for s in seats], rng, chart)
        while not state.is_over:
            state.play(state.random_legal_move(rng.random))
        record = to_record(state)
        ended = now - timedelta(hours=3 * k)
        record["table"] = {"ended": ended.isoformat(timespec="seconds"),
                           "seats": [{"name": n, "avatar": a, "kind": kd}
                                     for n, a, kd in seats]}
        record["guesses"] = [{"by": b, "of": o, "clan": state.clans[o], "weight": 0.9}
                             for b, s in enumerate(state.players) if "(" in s
                             for o in range(len(state.players)) if o != b]
        path = records / f"{ended:%Y%m%d-%H%M%S}-{k:010d}.json"
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def median_of(rounds: int, run) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="records to keep (1000)")
    parser.add_argument("--rounds", type=int, default=5, help="timed runs (median taken)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import pygame

    from clans_pi.saving.store import GameStore
    from clans_pi.ui.app import App
    from clans_pi.ui.screens.past_games import PastGamesScreen

    board, chart = load_default_board(), load_default_chart()
    with tempfile.TemporaryDirectory(prefix="clans-bench-history-") as tmp:
        state_dir = Path(tmp)
        records = state_dir / "records"
        made = time.perf_counter()
        make_records(records, args.games, args.seed)
        made = time.perf_counter() - made

        cache = History(records, board, chart).cache

        def first_pass() -> None:
            cache.unlink(missing_ok=True)
            History(records, board, chart).refresh()

        index_s = median_of(args.rounds, first_pass)
        cached_s = median_of(args.rounds, lambda: History(records, board, chart).refresh())
        history = History(records, board, chart)
        games = history.refresh()
        assert len(games) == args.games and not history.damaged
        refresh_s = median_of(args.rounds, history.refresh)

        pygame.font.init()

        def open_list(cold: bool, cached: bool = True) -> None:
            app = App(board, chart, size=(800, 480), store=GameStore(state_dir))
            if not cached:
                cache.unlink(missing_ok=True)
            if not cold:
                app.history = history
            app.start_menu()
            assert app.history is not None
            app.show(PastGamesScreen(app, app.history, back=app.start_menu))
            app.redraw()

        open_list(cold=False)  # warm up: fonts, avatars
        cold_s = median_of(args.rounds, lambda: open_list(cold=True, cached=False))
        cold_cached_s = median_of(args.rounds, lambda: open_list(cold=True))
        warm_s = median_of(args.rounds, lambda: open_list(cold=False))

        app = App(board, chart, size=(800, 480), store=GameStore(state_dir))
        app.history = history
        screen = PastGamesScreen(app, history, back=app.start_menu)
        app.show(screen)
        app.redraw()
        frames = []
        for k in range(1, 1 + max(20, args.rounds)):
            start = time.perf_counter()
            screen.scroll_to(k)
            app.dirty = app.full = True
            app.redraw()
            frames.append(time.perf_counter() - start)
        assert screen.top == k

        def boards() -> None:
            scoreboard(games)
            scoreboard(games, since=recent_since())

        scoreboard_s = median_of(args.rounds, boards)

        cli = [sys.executable, "-m", "clans_pi.cli", "history", "--state-dir", str(state_dir),
               "--json"]

        def run_cli() -> None:
            out = subprocess.run(cli, capture_output=True, text=True, check=True, cwd=ROOT)
            assert len(json.loads(out.stdout)["games"]) == args.games

        cli_s = median_of(args.rounds, run_cli)

    print(json.dumps({
        "games": args.games,
        "rounds": args.rounds,
        "records_made_s": round(made, 2),
        "index_s": round(index_s, 3),
        "index_cached_s": round(cached_s, 3),
        "refresh_s": round(refresh_s, 4),
        "open_list_cold_s": round(cold_s, 3),
        "open_list_cold_cached_s": round(cold_cached_s, 3),
        "open_list_s": round(warm_s, 3),
        "scroll_frame_ms": round(statistics.median(frames) * 1000, 2),
        "scoreboard_s": round(scoreboard_s, 4),
        "cli_history_s": round(cli_s, 3),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }, indent=1))


if __name__ == "__main__":
    main()
