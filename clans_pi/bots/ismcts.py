"""Information-set Monte Carlo tree search for Clans, for 2 to 4 players.

**One tree over the public game.** The secret clans never change what a move does (see
:mod:`.base`): the same moves are legal and found the same villages whoever owns which clan.
They only decide whose score a clan's points are (R20). So the tree is built over the public
game alone, and each iteration draws a *determinisation*: a clan for every player,
consistent with what the searching player knows (its own clan, R22), sampled from a belief
(or uniformly). The determinisation decides the rewards at the end of the simulation and,
with ``clan_aware_opponents``, which statistics an opponent chooses by.

**Selection.** Multi-player UCT: at a node, the player to move picks the child maximising
*their own* mean reward plus ``exploration * sqrt(ln N / n)``. The searching player's
statistics are single; another player's, with ``clan_aware_opponents``, are kept per clan
that player may hold (the *key*): an opponent who is green plays to green's interest,
so under a determinisation where they are green they choose by green's statistics. Without
it, opponents choose by statistics pooled over every clan they might hold, as if they did
not know their own (cheaper: four times as many visits per statistic; weaker opponent model).

**Actions** are ints ``order_index << 12 | src << 6 | dst``: a move (R8, R9 from
``legal_actions``) that founds two or more villages (R10) is one action per founding order
the mover may choose (R11, ``village_orders``), so the search chooses the order too.
Children are tried in a random order the first time, one new (node, key) edge per iteration.

**Simulation.** From the new edge, uniformly random moves and orders to the end
(``GameState.playout``), then each player's reward under the determinisation: a share of
the win (1, or 1/k among k tied winners, R21), blended with a small score-margin term
(``margin_weight``) so that the search still tells moves apart when most simulations are
won or lost whatever it does.

**Budget.** Exactly ``iterations`` iterations (reproducible), or until a wall-clock
deadline (``time.monotonic``). The cancel event is checked every iteration; setting it
raises :class:`~.base.Cancelled`.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..rules.constants import NUM_CLANS
from ..rules.moves import Move
from ..rules.state import GameState
from .base import Cancelled

__all__ = ["Result", "Settings", "decode", "search"]

#: A determinisation: each player's clan as an index into CLANS, in turn order.
ClanIndices = tuple[int, ...]

_MASK = (1 << 12) - 1


@dataclass(frozen=True)
class Settings:
    """How one search behaves (see the module docstring)."""

    exploration: float = 0.7
    clan_aware_opponents: bool = True
    margin_weight: float = 0.1
    margin_scale: float = 20.0  # points: a margin of this much counts fully


@dataclass(frozen=True)
class Result:
    """What a search chose and how much it looked."""

    move: Move
    iterations: int
    visits: dict[Move, int]  # root children: how often the searching player chose each


def decode(code: int, orders: dict[int, tuple[int, ...]]) -> Move:
    """The move of action ``code`` (its village order from ``orders`` when it has one)."""
    return Move(code >> 6 & 63, code & 63, orders.get(code))


def actions_with_orders(state: GameState) -> tuple[list[int], dict[int, tuple[int, ...]]]:
    """Every legal action of ``state`` (R8, R9), one per founding order when a move founds
    two or more villages (R11), and the order of each such action."""
    codes: list[int] = []
    orders: dict[int, tuple[int, ...]] = {}
    founds: dict[int, list[tuple[int, ...] | None]] = {}
    for action in state.legal_actions():
        src = action >> 6
        options = founds.get(src)
        if options is None:
            # Which villages a move founds depends on its source only (R10).
            options = founds[src] = state.village_orders(Move(src, action & 63))
        if len(options) == 1:
            codes.append(action)
        else:
            for k, order in enumerate(options):
                code = k << 12 | action
                codes.append(code)
                orders[code] = order  # type: ignore[assignment]
    return codes, orders


class _Stats:
    """One player's statistics of a node's edges, for one key (a clan index, or 0 when
    pooled): how many edges were tried (in ``actions`` order), visits through the node,
    and per edge the visits and the summed reward of the player who chose it."""

    __slots__ = ("n", "total", "tried", "w")

    def __init__(self, size: int) -> None:
        self.tried = 0
        self.total = 0
        self.n = [0] * size
        self.w = [0.0] * size


class _Node:
    """A public position in the tree that the search has gone through (positions reached
    once, at the end of a new edge, get no node: most of them are never reached again)."""

    __slots__ = ("actions", "children", "orders", "player", "stats")

    def __init__(self, player: int, state: GameState, rng: random.Random) -> None:
        self.player = player
        codes, self.orders = actions_with_orders(state)
        rng.shuffle(codes)
        self.actions = codes
        self.children: list[_Node | None] = [None] * len(codes)
        self.stats: list[_Stats | None] = [None] * NUM_CLANS


def search(
    state: GameState,
    sample: Callable[[random.Random], ClanIndices],
    rng: random.Random,
    settings: Settings,
    *,
    iterations: int | None = None,
    deadline: float | None = None,
    cancel: threading.Event | None = None,
) -> Result:
    """Search from ``state`` (left unchanged) for its player to move; ``sample(rng)`` draws
    a determinisation. Stops after exactly ``iterations``, or at ``deadline``
    (``time.monotonic``) when no iterations are given; at least one iteration either way.
    """
    assert not state.is_over, "the game is over"
    assert iterations is not None or deadline is not None, "no budget"
    me = state.current_player
    nplayers = state.num_players
    root = _Node(me, state, rng)
    aware = settings.clan_aware_opponents
    c = settings.exploration
    mw = settings.margin_weight
    ms = settings.margin_scale
    log = math.log
    sqrt = math.sqrt
    rand = rng.random
    monotonic = time.monotonic
    is_set = cancel.is_set if cancel is not None else None
    done = 0
    own_key = 0
    path: list[tuple[_Stats, int, int]] = []
    while True:
        if is_set is not None and is_set():
            raise Cancelled()
        if iterations is not None:
            if done >= iterations:
                break
        elif done and monotonic() >= deadline:  # type: ignore[operator]
            break
        clans = sample(rng)
        if not done:
            own_key = clans[me] if aware else 0
        st = state.copy(stack=False)
        node = root
        path.clear()
        # Selection and expansion: down the tree until a new edge for this key.
        while True:
            p = node.player
            key = clans[p] if aware else 0
            stats = node.stats[key]
            if stats is None:
                stats = node.stats[key] = _Stats(len(node.actions))
            actions = node.actions
            tried = stats.tried
            if tried < len(actions):
                i = tried
                stats.tried = tried + 1
                fresh = True
            else:
                fresh = False
                k = c * sqrt(log(stats.total))
                best = -1.0
                i = 0
                for j, (cn, cw) in enumerate(zip(stats.n, stats.w, strict=True)):
                    v = (cw + k * sqrt(cn)) / cn  # mean + k / sqrt(n)
                    if v > best:
                        best = v
                        i = j
            code = actions[i]
            st.push_action(code & _MASK, node.orders.get(code), undo=False)
            path.append((stats, i, p))
            if fresh or st.is_over:
                break
            child = node.children[i]
            if child is None:
                child = node.children[i] = _Node((p + 1) % nplayers, st, rng)
            node = child
        # Simulation.
        st.playout(rand)
        rewards = _rewards(st, clans, mw, ms)
        # Backpropagation: each edge learns the reward of the player who chose it.
        for stats, i, p in path:
            stats.total += 1
            stats.n[i] += 1
            stats.w[i] += rewards[p]
        done += 1
    visits: dict[Move, int] = {}
    root_stats = root.stats[own_key]
    assert root_stats is not None
    best_code, best_n, best_w = root.actions[0], -1, 0.0
    for code, cn, cw in zip(root.actions, root_stats.n, root_stats.w, strict=True):
        if cn:
            visits[decode(code, root.orders)] = cn
        if cn > best_n or (cn == best_n and cw > best_w):
            best_code, best_n, best_w = code, cn, cw
    return Result(decode(best_code, root.orders), done, visits)


def _rewards(
    state: GameState, clans: ClanIndices, margin_weight: float, margin_scale: float
) -> list[float]:
    """Each player's reward at the end of a simulation under ``clans`` (R20, R21)."""
    points = list(state.clan_points.values())
    scores = [points[k] + chips for k, chips in zip(clans, state.chips, strict=True)]
    top = max(scores)
    winners = scores.count(top)
    # The best score among the others: the top one, unless a player holds it alone.
    runner_up = max((x for x in scores if x != top), default=top) if winners == 1 else top
    out = []
    for s in scores:
        win = 1.0 / winners if s == top else 0.0
        if margin_weight:
            margin = s - (runner_up if s == top else top)
            margin = max(-1.0, min(1.0, margin / margin_scale))
            win = (1.0 - margin_weight) * win + margin_weight * 0.5 * (1.0 + margin)
        out.append(win)
    return out


def uniform_sampler(
    hypotheses: Sequence[ClanIndices],
) -> Callable[[random.Random], ClanIndices]:
    """Draw one of ``hypotheses`` uniformly."""
    hyps = list(hypotheses)
    n = len(hyps)

    def sample(rng: random.Random) -> ClanIndices:
        return hyps[int(rng.random() * n)]

    return sample


def weighted_sampler(
    hypotheses: Sequence[ClanIndices], probs: Sequence[float]
) -> Callable[[random.Random], ClanIndices]:
    """Draw one of ``hypotheses`` with probabilities ``probs`` (by inverse CDF)."""
    hyps = list(hypotheses)
    cum = []
    total = 0.0
    for p in probs:
        total += p
        cum.append(total)
    assert total > 0, "a belief with no mass"
    from bisect import bisect_right

    last = len(hyps) - 1

    def sample(rng: random.Random) -> ClanIndices:
        return hyps[min(bisect_right(cum, rng.random() * total), last)]

    return sample
