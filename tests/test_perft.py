"""Perft: the fast engine's move counts against a golden file made by the reference engine.

tests/data/perft.json (written by ``python scripts/make/perft.py`` from the reference engine
only) lists positions as game records with their expected legal move counts, ``perft1``
(moves counted once per village order, R11), ``perft2`` (two-ply sequences; a move that ends
the game has no replies) split by first move in ``divide``, the villages each move founds
(R10), and the result of finished games (R18-R21). A mismatch names the position and, for
perft2, the first moves whose subtree counts differ.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clans_pi.rules import record
from clans_pi.rules.board import load_default_board
from clans_pi.rules.epochs import load_default_chart
from clans_pi.rules.moves import Move
from clans_pi.rules.state import GameState
from scripts.make.perft import FORMAT, GOLDEN, board_digest, chart_digest

# Every move and playout here is checked against the compiled core too.
pytestmark = pytest.mark.usefixtures("compiled_twin")

BOARD = load_default_board()
CHART = load_default_chart()
REGENERATE = "run `python scripts/make/perft.py` to regenerate it"
SHOW = 8  # first moves detailed in a perft2 mismatch report


def _load() -> dict[str, Any]:
    try:
        return json.loads(GOLDEN.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


GOLDEN_DATA = _load()
POSITIONS: list[dict[str, Any]] = GOLDEN_DATA.get("positions", [])


def stale_reason() -> str | None:
    """Why the golden file does not describe the shipped board and chart, or None."""
    if not GOLDEN_DATA:
        return f"{GOLDEN} is missing: {REGENERATE}"
    if GOLDEN_DATA.get("format") != FORMAT:
        return f"{GOLDEN} is not in the {FORMAT!r} format: {REGENERATE}"
    board, chart = GOLDEN_DATA["board"], GOLDEN_DATA["chart"]
    shipped_board = {"id": BOARD.id, "digest": board_digest(BOARD.to_dict())}
    shipped_chart = {"id": CHART.id, "digest": chart_digest(CHART.to_dict())}
    if board != shipped_board:
        return (
            f"{Path(GOLDEN).name} was made for board {board} but the shipped board is "
            f"{shipped_board} (clans_pi/rules/data/board.json changed): {REGENERATE}"
        )
    if chart != shipped_chart:
        return (
            f"{Path(GOLDEN).name} was made for chart {chart} but the shipped chart is "
            f"{shipped_chart}: {REGENERATE}"
        )
    return None


@pytest.fixture(autouse=True)
def _skip_when_stale(request: pytest.FixtureRequest) -> None:
    reason = stale_reason()
    if (
        reason
        and request.node.originalname != "test_golden_file_matches_the_shipped_board_and_chart"
    ):
        pytest.skip(reason)


def test_golden_file_matches_the_shipped_board_and_chart() -> None:
    # This one fails (the others skip) when the golden file is stale, so CI notices.
    reason = stale_reason()
    assert reason is None, reason
    assert GOLDEN_DATA["board"]["id"] == BOARD.id
    assert GOLDEN_DATA["chart"]["id"] == CHART.id


def test_golden_file_covers_the_interesting_positions() -> None:
    names = [p["name"] for p in POSITIONS]
    assert len(POSITIONS) >= 20, names
    assert {len(p["record"]["players"]) for p in POSITIONS} == {2, 3, 4}
    assert {p["end"] for p in POSITIONS} == {"in_progress", "twelfth_village", "no_moves"}
    assert any(p["perft1"] > p["legal_moves"] for p in POSITIONS), "R11: no multi-village move"
    assert any(len(v) >= 3 for p in POSITIONS for v in p["founds"].values()), "no 3 villages"
    assert any(name.startswith("big-into-big") for name in names)
    assert any(name.startswith("more-villages-than-chips") for name in names)


# ------------------------------------------------------------------------ counting


def orders(state: GameState, action: int) -> list[tuple[int, ...] | None]:
    """Every founding order of an action's villages (R11): k! of them for k villages."""
    return state.village_orders(Move(action >> 6, action & 63))


def perft1(state: GameState) -> int:
    return sum(len(orders(state, a)) for a in state.legal_actions())


def divide2(state: GameState) -> dict[str, int]:
    """perft2 split by first move ("from-to", all its village orders together)."""
    out: dict[str, int] = {}
    for action in state.legal_actions():
        total = 0
        for order in orders(state, action):
            state.push_action(action, order)
            total += perft1(state)  # a finished position has no legal actions
            state.pop()
        out[f"{action >> 6}-{action & 63}"] = total
    return out


def replayed(position: dict[str, Any]) -> GameState:
    return record.replay(position["record"], BOARD, CHART)


def position_ids() -> list[str]:
    return [p["name"] for p in POSITIONS] or ["no-golden-file"]


@pytest.fixture(params=POSITIONS or [None], ids=position_ids())
def position(request: pytest.FixtureRequest) -> dict[str, Any]:
    return request.param


# ------------------------------------------------------------------------ the tests


def test_r8_r9_legal_move_count(position: dict[str, Any]) -> None:
    state = replayed(position)
    name = position["name"]
    assert state.ply == position["ply"], name
    assert state.chips_taken == position["chips_taken"], name
    assert (state.end_reason or "in_progress") == position["end"], name
    assert len(state.legal_moves()) == position["legal_moves"], name
    assert state.legal_move_count() == position["legal_moves"], name


def test_r10_villages_founded_by_each_move(position: dict[str, Any]) -> None:
    state = replayed(position)
    got = {f"{m.src}-{m.dst}": list(state.founds(m)) for m in state.legal_moves()}
    got = {k: v for k, v in got.items() if v}
    expected = position["founds"]
    wrong = {k: (got.get(k), expected.get(k)) for k in got.keys() | expected.keys()}
    wrong = {k: f"engine {a}, reference {b}" for k, (a, b) in wrong.items() if a != b}
    assert not wrong, f"{position['name']}: villages founded differ: {wrong}"


def test_r11_perft1(position: dict[str, Any]) -> None:
    state = replayed(position)
    assert perft1(state) == position["perft1"], position["name"]


def test_r8_to_r18_perft2(position: dict[str, Any]) -> None:
    state = replayed(position)
    before = record.result(state)
    divide = divide2(state)
    assert record.result(state) == before, "push/pop left the position changed"
    expected = position["divide"]
    if sum(divide.values()) == position["perft2"] and divide == expected:
        return
    # Bisect: which first moves' subtrees differ, and how each of their orders counts.
    lines = [f"{position['name']}: perft2 {sum(divide.values())}, expected {position['perft2']}"]
    keys = sorted(divide.keys() | expected.keys(), key=lambda k: tuple(map(int, k.split("-"))))
    differ = [k for k in keys if divide.get(k) != expected.get(k)]
    for key in differ[:SHOW]:
        lines.append(f"  first move {key}: engine {divide.get(key)}, reference {expected.get(key)}")
        if key in divide:
            src, dst = map(int, key.split("-"))
            for order in orders(state, src << 6 | dst):
                state.push_action(src << 6 | dst, order)
                replies = [
                    f"{a >> 6}-{a & 63}x{len(orders(state, a))}" for a in state.legal_actions()
                ]
                shown = " ".join(replies[:40]) + (" ..." if len(replies) > 40 else "")
                lines.append(f"    order {order}: {len(replies)} replies (reply x orders) {shown}")
                state.pop()
    if len(differ) > SHOW:
        lines.append(f"  ... and {len(differ) - SHOW} more first moves: {' '.join(differ[SHOW:])}")
    pytest.fail("\n".join(lines))


FINISHED = [p for p in POSITIONS if "result" in p]


@pytest.mark.parametrize(
    "position", FINISHED or [None], ids=[p["name"] for p in FINISHED] or ["no-golden-file"]
)
def test_r18_to_r21_result_of_finished_games(position: dict[str, Any]) -> None:
    state = replayed(position)
    assert state.is_over
    assert record.result(state) == position["result"], position["name"]
