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


class _Node:
    """A public position in the tree. ``n``/``w`` are the statistics of the edge into this
    node for its parent's mover, per key (a clan index, or 0 when pooled)."""

    __slots__ = ("actions", "children", "n", "orders", "player", "total", "tried", "w")

    def __init__(self, player: int) -> None:
        self.player = player
        self.actions: list[int] | None = None  # filled the second time the node is reached
        self.orders: dict[int, tuple[int, ...]] = {}
        self.children: list[_Node | None] = []
        self.tried = [0] * NUM_CLANS  # per key: children tried, in ``actions`` order
        self.total = [0] * NUM_CLANS  # per key: visits through this node
        self.n = [0] * NUM_CLANS
        self.w = [0.0] * NUM_CLANS

    def expand(self, state: GameState, rng: random.Random) -> None:
        codes, self.orders = actions_with_orders(state)
        rng.shuffle(codes)
        self.actions = codes
        self.children = [None] * len(codes)


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
    root = _Node(me)
    root.expand(state, rng)
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
    path: list[tuple[_Node, _Node, int]] = []
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
            actions = node.actions
            if actions is None:
                if st.is_over:
                    break
                node.expand(st, rng)
                actions = node.actions
                assert actions is not None
            elif not actions:
                break  # game over here
            tried = node.tried[key]
            if tried < len(actions):
                i = tried
                node.tried[key] = tried + 1
                fresh = True
            else:
                fresh = False
                logn = log(node.total[key])
                best = -1.0
                i = 0
                for j, child in enumerate(node.children):
                    cn = child.n[key]  # type: ignore[union-attr]
                    v = child.w[key] / cn + c * sqrt(logn / cn)  # type: ignore[union-attr]
                    if v > best:
                        best = v
                        i = j
            code = actions[i]
            child = node.children[i]
            if child is None:
                child = node.children[i] = _Node((p + 1) % nplayers)
            st.push_action(code & _MASK, node.orders.get(code), undo=False)
            path.append((node, child, key))
            node = child
            if fresh:
                break
        # Simulation.
        st.playout(rand)
        rewards = _rewards(st, clans, mw, ms)
        # Backpropagation: each edge learns the reward of the player who chose it.
        for parent, child, key in path:
            parent.total[key] += 1
            child.n[key] += 1
            child.w[key] += rewards[parent.player]
        done += 1
    visits: dict[Move, int] = {}
    best_code, best_n, best_w = -1, -1, 0.0
    for code, child in zip(root.actions or (), root.children, strict=True):
        if child is None:
            continue
        cn, cw = child.n[own_key], child.w[own_key]
        if cn:
            visits[decode(code, root.orders)] = cn
        if cn > best_n or (cn == best_n and cw > best_w):
            best_code, best_n, best_w = code, cn, cw
    if best_code < 0:  # no iteration reached the root's children (cannot happen: >= 1)
        best_code = (root.actions or [0])[0]
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
