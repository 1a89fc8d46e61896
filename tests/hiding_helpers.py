"""Games for the hiding analysis' tests: one player plainly playing for their clan
(the heuristic's best move for it, every time) among random movers, or random movers only;
and the calibration of a reader on a file of recorded games."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

from clans_pi.bots.heuristic import clan_values
from clans_pi.rules.constants import CLAN_INDEX
from clans_pi.rules.record import to_record
from clans_pi.rules.setup import deal
from clans_pi.rules.state import GameState
from scripts.research.hiding_calibration import figures, readings
from tests.ui_helpers import BOARD, CHART

#: 18 recorded games of the levels hiding (tests/test_reader_calibration.py says which).
HIDING_GAMES = Path(__file__).parent / "data" / "hiding_games.jsonl"


def calibration(model: Any, games: Path = HIDING_GAMES) -> dict:
    """``model``'s figures (scripts/research/hiding_calibration.py) as a seat and as an
    onlooker on every move of the recorded games of ``games`` (one JSON line each); a
    series is one reader's readings of one player through one game."""
    rows: dict[str, list] = {"seat": [], "onlooker": []}
    for game, line in enumerate(games.read_text(encoding="utf-8").splitlines()):
        for kind, guesses in readings(json.loads(line)["record"], 1, model).items():
            rows[kind] += [(g, (game, *name)) for g, name in guesses]
    return {kind: figures(guesses) for kind, guesses in rows.items()}


@functools.cache
def plain_game(seed: int, players: int = 3, plain: tuple[int, ...] = (0,)) -> GameState:
    """A finished game in which the players ``plain`` (turn order) always make the move
    best for their own clan and the others move at random."""
    rng = random.Random(seed)
    state = deal(BOARD, [f"P{i}" for i in range(players)], rng, CHART)
    while not state.is_over:
        p = state.current_player
        if p in plain:
            moves = state.legal_moves()
            clan = CLAN_INDEX[state.clan_of(p)]
            values = clan_values(state, moves)
            state.play(moves[max(range(len(moves)), key=lambda i: values[i][clan])])
        else:
            state.play(state.random_legal_move(rng.random))
    return state


def plain_record(seed: int, players: int = 3, plain: tuple[int, ...] = (0,)) -> dict[str, Any]:
    """:func:`plain_game` as the store keeps it."""
    return to_record(plain_game(seed, players, plain))


__all__ = ["BOARD", "CHART", "plain_game", "plain_record"]
