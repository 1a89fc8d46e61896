#!/usr/bin/env python3
"""Render the screenshots of README.md and docs/playing.md with `clans-pi render` (no display
needed).

    python scripts/make/screenshots.py           write docs/screenshots/*.png
    python scripts/make/screenshots.py --check   exit 1 if a stored picture no longer
                                                 matches a fresh render (more than 1 % of
                                                 its pixels differ)

The game shown is a fixed deal (seed 2026) played by seeded random movers: 38 moves for the
play screen, to the end for the reveal and the final board; the held peek and the village
order are made by touching the app as a player does.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from clans_pi.bots.random_mover import RandomMover  # noqa: E402
from clans_pi.cli import main as clans_pi  # noqa: E402
from clans_pi.rules.board import load_default_board  # noqa: E402
from clans_pi.rules.epochs import load_default_chart  # noqa: E402
from clans_pi.rules.record import to_json  # noqa: E402
from clans_pi.rules.setup import deal  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
PLAYERS = ("Anna", "Ben", "Cleo", "Dev")
#: (file name, screen, size, moves played: None = to the end)
SHOTS = (
    ("play-800x480.png", "play", "800x480", 38),
    ("play-720x1280.png", "play", "720x1280", 38),
    ("reveal-800x480.png", "reveal", "800x480", None),
    ("peek-800x480.png", "peek", "800x480", 0),
    ("rules-800x480.png", "rules", "800x480", 0),
    ("board-800x480.png", "board", "800x480", None),
    ("replay-800x480.png", "replay", "800x480", None),
    ("hiding-800x480.png", "hiding", "800x480", None),
)
#: Screens a render cannot reach, made by touching the app as a player does: (file name,
#: what is done, moves played first).
TOUCHED = (
    ("peek-held-800x480.png", "hold the peek", 0),
    ("order-800x480.png", "a move founding two villages, one placed", 28),
    ("hint-800x480.png", "hold the hint", 38),
)


def _game(moves: int | None, *, seed: int = 2026, easy_first: bool = False) -> dict:
    """A seeded game of random movers (``easy_first``: the first player plays Easy, for its
    clan, so that its chart of how well it hid has moves that gave it away)."""
    from clans_pi.bots import make_bot

    board, chart = load_default_board(), load_default_chart()
    rng = random.Random(seed)
    state = deal(board, PLAYERS, rng, chart)
    mover = RandomMover(rng=rng)
    easy = make_bot("easy", board, chart, seed=seed) if easy_first else None
    while not state.is_over and (moves is None or state.ply < moves):
        if easy is not None and state.current_player == 0:
            state.play(easy.choose(state.observation(0)))
        else:
            state.play(mover.choose(state))
    return to_json(state)


def _touched(what: str, moves: int, target: Path) -> None:
    from clans_pi.bots import Budget, make_bot
    from clans_pi.ui.app import App
    from clans_pi.ui.run import load_game

    board, chart = load_default_board(), load_default_chart()
    session = load_game(_game(moves), board, chart, "screenshot")
    app = App(board, chart, size=(800, 480), rng=random.Random(1), clock=lambda: 0)
    app.table.session = session
    app.table.seats = list(session.seats)
    if what == "hold the peek":
        app.peek(1)
        app.screen.button("hold").action(True)
    elif what == "hold the hint":
        # The Hard player's search from the mover's own view, a fixed number of
        # iterations (the same picture on any machine).
        app.table.hints = True
        app.table.bots = lambda seat, level: make_bot(level, board, chart, seed=7 + seat,
                                                      budget=Budget(iterations=400))
        app.play()
        app.show_hint()
        app.screen.button("hold").action(True)
        while app.table.hint()[0] != "ready":
            app.table.poll_computers(0)
            time.sleep(0.02)
    else:
        app.play()
        screen = app.screen
        move = next(m for m in session.public().legal_moves
                    if len(session.founds(m.src, m.dst)) >= 2)
        screen.move_huts(move.src, move.dst)
        screen.tap_territory(screen.order.founds[0])
    app.redraw()
    pygame.image.save(app.surface, str(target))


def render_all(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, screen, size, moves in SHOTS:
            game = Path(tmp) / f"{name}.json"
            # The large chart: a player read by the table, its give-aways listed.
            played = (_game(moves, seed=2028, easy_first=True) if screen == "hiding"
                      else _game(moves))
            game.write_text(json.dumps(played))
            target = out / name
            code = clans_pi(["render", str(game), "--screen", screen, "--size", size,
                             "-o", str(target)])
            if code:
                raise SystemExit(f"rendering {name} failed")
            made.append(target)
    for name, what, moves in TOUCHED:
        _touched(what, moves, out / name)
        made.append(out / name)
    return made


def differing_fraction(a: Path, b: Path) -> float:
    sa, sb = pygame.image.load(str(a)), pygame.image.load(str(b))
    if sa.get_size() != sb.get_size():
        return 1.0
    ba, bb = pygame.image.tobytes(sa, "RGB"), pygame.image.tobytes(sb, "RGB")
    px = len(ba) // 3
    diff = sum(ba[i * 3:i * 3 + 3] != bb[i * 3:i * 3 + 3] for i in range(px))
    return diff / px


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if not args.check:
        for path in render_all(OUT):
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        bad = 0
        for fresh in render_all(Path(tmp)):
            stored = OUT / fresh.name
            if not stored.exists():
                print(f"{stored.relative_to(ROOT)} is missing", file=sys.stderr)
                bad += 1
                continue
            frac = differing_fraction(stored, fresh)
            if frac > 0.01:
                print(f"{stored.relative_to(ROOT)}: {frac:.1%} of pixels differ from a fresh "
                      "render; run scripts/make/screenshots.py", file=sys.stderr)
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
