"""Whether the compiled core plays as the Python path does on this machine: seeded games
played move by move on both (the same legal moves and the same state after every move, with
random village orders), and seeded searches with Hard's and Normal's settings (the same
move, visits and rewards). The tests hold the two paths together on the machine they run
on; this is the same question asked where the game runs (``clans-pi selftest`` on a Pi, the
engine benchmark), where another compiler or processor could answer otherwise.
"""

from __future__ import annotations

import random

from ..compiled.library import Core, core, library_path, python_path, why_not
from ..compiled.state import CoreState, tables
from ..rules.board import load_default_board
from ..rules.constants import CLAN_INDEX
from ..rules.epochs import load_default_chart
from ..rules.moves import Move
from ..rules.setup import deal
from . import compiled_search, ismcts
from .base import assignments
from .search_bot import LEVEL_SETTINGS

__all__ = ["SAME", "agrees", "main", "verdict"]

#: What :func:`verdict` says of a core that plays the Python path's games.
SAME = "the same games as the Python path"

NAMES = ("a", "b", "c", "d")


def agrees(lib: Core, seed: int = 1, games: int = 20, searches: int = 10,
           iterations: int = 200) -> bool:
    """True when ``games`` seeded games and ``searches`` seeded searches of ``iterations``
    come out the same on the compiled core and in Python."""
    board, chart = load_default_board(), load_default_chart()
    positions = []
    for k in range(games):
        rng = random.Random(f"{seed}:{k}")
        state = deal(board, NAMES[: 2 + k % 3], rng, chart)
        cstate = CoreState.of(lib, state)
        while not state.is_over:
            actions = state.legal_actions()
            if cstate.legal_actions() != actions:
                return False
            if len(positions) < searches and state.ply == 5 * (k + 1) % 45:
                positions.append(state.copy(stack=False))
            action = actions[int(rng.random() * len(actions))]
            orders = state.village_orders(Move(action >> 6, action & 63))
            order = orders[int(rng.random() * len(orders))]
            state.push_action(action, order, undo=False)
            cstate.push_action(action, order)
            if cstate.tables() != tables(state):
                return False
    for k, state in enumerate(positions):
        level = LEVEL_SETTINGS[("hard", "normal")[k % 2]]
        me = state.current_player
        hyps = [tuple(CLAN_INDEX[c] for c in h)
                for h in assignments(state.num_players, me, state.clan_of(me))]
        probs = [1.0 + (i % 3) for i in range(len(hyps))]
        sampler = ismcts.weighted_sampler(hyps, probs) if level.belief_sampling \
            else ismcts.uniform_sampler(hyps)
        weights = ismcts.clan_weights(hyps, [q / sum(probs) for q in probs])
        python, compiled = random.Random(k), random.Random(k)
        with python_path():  # the heuristic's values in Python too
            a = ismcts.search(state, sampler, python, level.search,
                              iterations=iterations, clan_weights=weights)
        b = compiled_search.search(lib, state, sampler, compiled, level.search,
                                   iterations=iterations, clan_weights=weights)
        if (a.move, a.iterations, a.visits, a.values) != (b.move, b.iterations, b.visits,
                                                          b.values):
            return False
        if python.getstate() != compiled.getstate():
            return False
    return len(positions) == searches


def verdict() -> tuple[bool, str]:
    """Which path the computers think on here, in a line, and whether all is well: the
    compiled core playing :data:`SAME` (:func:`agrees`), or the Python path and why. A core
    that plays other games than the Python path is not well (another compiler's or
    processor's floating point, say)."""
    lib = core()
    if lib is None:
        return True, f"Python path: {why_not()}"
    name = library_path().name
    if agrees(lib):
        return True, f"compiled core ({name}), {SAME}"
    return False, (f"compiled core ({name}) plays other games than the Python path: "
                   "build it again (python -m clans_pi.compiled.build, or the installer)")


def main() -> int:
    """``python -m clans_pi.bots.compiled_check``: :func:`verdict` in a line; exit 1 when
    it is not well (the image builder runs it in the image it builds)."""
    ok, said = verdict()
    print(f"computer players: {said}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
