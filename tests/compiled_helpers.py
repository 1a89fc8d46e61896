"""The compiled core held against the Python rules while any test plays: :func:`twin`
shadows every ``GameState`` a test moves with a :class:`~clans_pi.compiled.state.CoreState`
and checks, after each move and each playout, that the two have the same tables (huts,
counts, live territories, degrees, chips, points, villages, the end) and legal moves, and
that a playout drew the same random numbers. So every rules test runs on both paths.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from clans_pi.compiled import core, why_not
from clans_pi.compiled.build import compiler
from clans_pi.compiled.library import ENV
from clans_pi.compiled.state import CoreRandom, CoreState, tables
from clans_pi.rules.state import GameState


def the_core(*, required: bool = True) -> Any:
    """The compiled core. Where no C compiler is (or ``CLANS_PI_CORE=python`` chose the
    Python path): a skip (``required``) or None; where one is, a core not built is a
    failure (the set-up builds it)."""
    found = core()
    if found is None:
        if os.environ.get(ENV) == "python" or compiler() is None:
            if required:
                pytest.skip(why_not() if os.environ.get(ENV) == "python"
                            else f"no C compiler here: {why_not()}")
            return None
        pytest.fail(f"a C compiler is here but {why_not()}")
    return found


class Twins:
    """Each shadowed game's core state and the villages it started after."""

    def __init__(self, lib: Any) -> None:
        self.lib = lib
        self.of: dict[int, tuple[GameState, CoreState, int]] = {}
        self.moves = 0
        self.playouts = 0

    def get(self, state: GameState) -> tuple[CoreState, int]:
        entry = self.of.get(id(state))
        if entry is None or entry[0] is not state:
            entry = (state, CoreState.of(self.lib, state), len(state.villages))
            self.of[id(state)] = entry  # the state kept: its id is not reused meanwhile
        return entry[1], entry[2]

    def forget(self, state: GameState) -> None:
        self.of.pop(id(state), None)

    def check(self, state: GameState, cstate: CoreState, villages_from: int, what: str) -> None:
        assert cstate.tables() == tables(state, villages_from), f"the core differs {what}"
        assert cstate.legal_actions() == state.legal_actions(), f"legal moves differ {what}"


@contextmanager
def twin(monkeypatch: pytest.MonkeyPatch) -> Iterator[Twins | None]:
    """Shadow every move and playout of every ``GameState`` (see the module docstring);
    where there is no C compiler, the Python path alone (None)."""
    lib = the_core(required=False)
    if lib is None:
        yield None
        return
    twins = Twins(lib)
    apply, playout, pop = GameState._apply, GameState.playout, GameState.pop

    def shadow_apply(self: GameState, src: int, dst: int, order: Any, out: Any,
                     undo: bool = True, shuffle: Any = None) -> None:
        if shuffle is not None:  # a playout's own move: its playout is checked whole
            apply(self, src, dst, order, out, undo, shuffle)
            return
        cstate, start = twins.get(self)
        apply(self, src, dst, order, out, undo, shuffle)
        # The order the Python applied (R11): the one given, else the founding order.
        cstate.push_action(src << 6 | dst, self._history[-1][2])
        twins.moves += 1
        twins.check(self, cstate, start, f"after {src}->{dst} at ply {self.ply}")

    def shadow_playout(self: GameState, rand: Any) -> None:
        rng = getattr(rand, "__self__", None)
        if not isinstance(rng, random.Random) or self.is_over:
            playout(self, rand)
            twins.forget(self)
            return
        cstate, start = twins.get(self)
        crandom = CoreRandom(twins.lib, rng)
        playout(self, rand)
        cstate.playout(crandom)
        mirror = random.Random()
        crandom.give(mirror)
        twins.playouts += 1
        twins.check(self, cstate, start, "after a playout")
        assert mirror.getstate() == rng.getstate(), "a playout drew other random numbers"

    def shadow_pop(self: GameState) -> Any:
        twins.forget(self)  # made anew from the tables at its next move
        return pop(self)

    monkeypatch.setattr(GameState, "_apply", shadow_apply)
    monkeypatch.setattr(GameState, "playout", shadow_playout)
    monkeypatch.setattr(GameState, "pop", shadow_pop)
    yield twins
