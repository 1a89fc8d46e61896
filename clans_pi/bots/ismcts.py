"""Information-set Monte Carlo tree search for Clans, for 2 to 4 players.

**One tree over the public game.** The secret clans never change what a move does (see
:mod:`.base`): the same moves are legal and found the same villages whoever owns which clan.
They only decide whose score a clan's points are (R20). So the tree is built over the public
game alone (each node is an information set of the searching player: the public position
and its own clan), and each iteration draws a *determinisation*: a clan for every player,
consistent with what the searching player knows (R22), sampled from a belief (or
uniformly). The determinisation decides the rewards at the end of the simulation.

**Selection.** Multi-player UCT: at a node, the player to move picks the child maximising
*their own* mean reward plus ``exploration * sqrt(ln N / n)``. An opponent's statistics are
pooled over the determinisations, so it plays for its clan as the searching player believes
it to be: with belief-weighted determinisations, mostly the clan its moves have shown.
(Statistics kept per clan an opponent might hold were tried: at equal iterations they lost
44-46 % of 100-game matches against pooled ones, each statistic getting a quarter of the
visits.)

**Actions** are ints ``order_index << 12 | src << 6 | dst``: a move (R8, R9 from
``legal_actions``) that founds two or more villages (R10) is one action per founding order
the mover may choose (R11, ``village_orders``), so the search chooses the order too.
Children are tried in a random order, or in the heuristic's order (``ordered``), all of
them before UCT chooses, or with progressive widening (``widening``) more of them as the
node's visits grow.

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
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..rules.constants import NUM_CLANS
from ..rules.moves import Move
from ..rules.state import GameState
from .base import Cancelled
from .heuristic import clan_values

__all__ = [
    "Result",
    "Sampler",
    "Settings",
    "actions_with_orders",
    "clan_weights",
    "decode",
    "heuristic_order",
    "search",
    "tried_index",
    "uniform_sampler",
    "weighted_sampler",
]

#: A determinisation: each player's clan as an index into CLANS, in turn order.
ClanIndices = tuple[int, ...]

_MASK = (1 << 12) - 1


@dataclass(frozen=True)
class Settings:
    """How one search behaves (see the module docstring)."""

    exploration: float = 0.7
    margin_weight: float = 0.1
    margin_scale: float = 20.0  # points: a margin of this much counts fully
    #: 0: every child is tried once before UCT chooses among them. Else progressive
    #: widening: a node visited n times tries a new child only while it has tried fewer
    #: than ``widening * sqrt(n + 1)``, and otherwise chooses among those by UCT.
    widening: float = 0.0
    #: Children in the heuristic's order for the mover (:func:`.heuristic.clan_values`,
    #: weighted by the mover's clan probabilities) instead of a random one: the root's at
    #: once, another node's untried ones once it has been visited ``order_after`` times.
    ordered: bool = False
    order_after: int = 8
    #: The root widens as if it had this many times its visits: a worker of a root-parallel
    #: search (:mod:`.parallel`) gives it the number of workers, so that their roots
    #: together consider as many moves as one tree with all their iterations would.
    root_breadth: float = 1.0
    #: At most this many new nodes a search: past it the tree stops growing and the
    #: iterations go on from its edges (a long think on a small Pi stays within its memory:
    #: Hard's nodes take about 200 bytes each in the compiled core). Hard's second on a Pi
    #: makes about 70,000.
    max_nodes: int = 150_000


@dataclass(frozen=True)
class Result:
    """What a search chose and how much it looked."""

    move: Move
    iterations: int
    visits: dict[Move, int]  # root children: how often the searching player chose each
    #: The tree searched (to keep for the next move, :mod:`.tree`); None for a merged one.
    root: _Node | None = field(default=None, repr=False, compare=False)
    #: Root children: the searching player's mean reward for each (empty: not given).
    values: dict[Move, float] = field(default_factory=dict, repr=False, compare=False)


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
    """A public position the search has gone through (a position reached once, at the end
    of a new edge, gets no node: most are never reached again).

    ``actions`` starts with the children tried so far, in the order they were tried; per
    tried child, ``n`` counts its visits and ``w`` sums the rewards of this node's mover.
    Once ``full``, ``actions`` goes on with every child not tried yet, in the order they
    will be. With progressive widening a node usually tries only a few children, so it
    starts empty and draws them at random until it is worth ordering the rest.
    """

    __slots__ = ("actions", "children", "full", "n", "orders", "player", "sorted", "total", "w")

    def __init__(self, player: int, state: GameState, rng: random.Random, eager: bool) -> None:
        self.player = player
        self.n: list[int] = []
        self.w: list[float] = []
        self.children: list[_Node | None] = []
        self.total = 0
        self.sorted = False
        if eager:
            codes, self.orders = actions_with_orders(state)
            rng.shuffle(codes)
            self.actions = codes
            self.full = True
        else:
            self.actions = []
            self.orders = {}
            self.full = False

    def draw(self, state: GameState, rand: Callable[[], float]) -> bool:
        """Add an untried child drawn at random (a uniform legal move, then a uniform
        village order, R11); False when every child has been tried."""
        assert not self.full, "a full node lists its children already"
        actions = self.actions
        for _ in range(16):
            action = state.random_legal_action(rand)
            orders = state.village_orders(Move(action >> 6, action & 63))
            if len(orders) > 1:
                k = int(rand() * len(orders))
                code = k << 12 | action
                self.orders[code] = orders[k]  # type: ignore[assignment]
            else:
                code = action
            if code not in actions:
                actions.append(code)
                return True
        self.complete(state, rand)  # nearly all tried: list them all
        return len(self.n) < len(actions)

    def complete(self, state: GameState, rand: Callable[[], float]) -> None:
        """List every child: the untried ones after the tried ones, in random order."""
        codes, orders = actions_with_orders(state)
        tried = set(self.actions[: len(self.n)])
        rest = [code for code in codes if code not in tried]
        for i in range(len(rest) - 1, 0, -1):
            j = int(rand() * (i + 1))
            rest[i], rest[j] = rest[j], rest[i]
        self.actions[len(self.n) :] = rest
        self.orders.update(orders)
        self.full = True

    def sort_untried(self, state: GameState, weights: Sequence[float]) -> None:
        """Put the children not tried yet in the heuristic's order, best first, for a mover
        whose clan is each clan with probability ``weights`` (CLANS order)."""
        self.sorted = True
        tried = len(self.n)
        rest = self.actions[tried:]
        if len(rest) < 2:
            return
        self.actions[tried:] = heuristic_order(state, rest, weights)

    def child(self, move: Move) -> _Node | None:
        """The node that ``move`` (with its village order, R11) leads to, if the search
        made it one (children tried twice or more are nodes)."""
        i = tried_index(self.actions, len(self.n), self.orders, move)
        return None if i is None else self.children[i]


def tried_index(actions: Sequence[int], tried: int, orders: dict[int, tuple[int, ...]],
                move: Move) -> int | None:
    """Which of a node's ``tried`` first children (codes ``actions``, their village
    orders ``orders``) is ``move`` with its village order (R11); None: not tried."""
    pair = move.src << 6 | move.dst
    order = tuple(move.order) if move.order is not None and len(move.order) > 1 else None
    for i in range(tried):
        code = actions[i]
        if code & _MASK == pair and orders.get(code) == order:
            return i
    return None


def clan_weights(hypotheses: Sequence[ClanIndices],
                 probs: Sequence[float]) -> list[list[float]]:
    """Each player's probability of each clan (CLANS order) when the determinisations
    ``hypotheses`` have probabilities ``probs``: the ``clan_weights`` of :func:`search`."""
    weights = [[0.0] * NUM_CLANS for _ in hypotheses[0]]
    for h, q in zip(hypotheses, probs, strict=True):
        for player, clan in enumerate(h):
            weights[player][clan] += q
    return weights


def heuristic_order(state: GameState, codes: Sequence[int],
                    weights: Sequence[float]) -> list[int]:
    """``codes`` (children of ``state``'s node) best first by the heuristic, for a mover
    whose clan is each clan with probability ``weights`` (CLANS order); ties keep their
    order."""
    pairs = sorted({code & _MASK for code in codes})
    values = clan_values(state, [Move(a >> 6, a & 63) for a in pairs])
    held = [(c, q) for c, q in enumerate(weights) if q]  # the clans the mover may hold
    score = {}
    for a, v in zip(pairs, values, strict=True):
        s = 0.0
        for c, q in held:  # added in order, not sum(): the compiled core adds the same
            s += q * v[c]
        score[a] = s
    return sorted(codes, key=lambda code: -score[code & _MASK])


def search(
    state: GameState,
    sample: Callable[[random.Random], ClanIndices],
    rng: random.Random,
    settings: Settings,
    *,
    iterations: int | None = None,
    deadline: float | None = None,
    cancel: threading.Event | None = None,
    clan_weights: Sequence[Sequence[float]] | None = None,
    root: _Node | None = None,
) -> Result:
    """Search from ``state`` (left unchanged) for its player to move; ``sample(rng)`` draws
    a determinisation. Stops after exactly ``iterations``, or at ``deadline``
    (``time.monotonic``) when no iterations are given; at least one iteration either way.
    ``clan_weights[p][c]``, the probability that player ``p`` holds clan ``c``, is needed
    with ``settings.ordered``. ``root``, a node for ``state`` kept from an earlier search
    (:mod:`.tree`), goes on with the statistics it has; else the search starts afresh.
    """
    assert iterations is not None or deadline is not None, "no budget"
    root = prepare_root(state, rng, settings, clan_weights, root)
    rand = rng.random
    walk = walker(root, state.num_players, rng, settings, clan_weights)
    mw = settings.margin_weight
    ms = settings.margin_scale
    monotonic = time.monotonic
    is_set = cancel.is_set if cancel is not None else None
    done = 0
    path: list[tuple[_Node, int]] = []
    while True:
        if is_set is not None and is_set():
            raise Cancelled()
        if iterations is not None:
            if done >= iterations:
                break
        elif done and monotonic() >= deadline:  # type: ignore[operator]
            break
        clans = sample(rng)
        st = state.copy(stack=False)
        path.clear()
        walk(st, path)
        # Simulation.
        st.playout(rand)
        rewards = _rewards(st, clans, mw, ms)
        # Backpropagation: each edge learns the reward of the player who chose it (its
        # visit was counted on the way down).
        for node, i in path:
            node.w[i] += rewards[node.player]
        done += 1
    return result_of(root, done)


def prepare_root(
    state: GameState,
    rng: random.Random,
    settings: Settings,
    clan_weights: Sequence[Sequence[float]] | None,
    root: _Node | None,
) -> _Node:
    """The root a search of ``state`` starts from: ``root`` kept from an earlier search
    (every child listed), or a new one; in the heuristic's order with ``settings.ordered``."""
    assert not state.is_over, "the game is over"
    assert not settings.ordered or clan_weights is not None, "ordering needs clan weights"
    me = state.current_player
    if root is None:
        root = _Node(me, state, rng, True)
    else:
        assert root.player == me, "a kept root of another player's turn"
        if not root.full:
            root.complete(state, rng.random)
    if settings.ordered:
        root.sort_untried(state, clan_weights[me])  # type: ignore[index]
    return root


def walker(
    root: _Node,
    nplayers: int,
    rng: random.Random,
    settings: Settings,
    clan_weights: Sequence[Sequence[float]] | None,
) -> Callable[[GameState, list[tuple[_Node, int]]], None]:
    """The selection and expansion of one iteration: ``walk(st, path)`` goes down the tree
    from ``root`` (``st`` its position, played along) to a new edge or the end of the game,
    appending each ``(node, child)`` chosen to ``path`` and counting its visit at once (the
    backup adds the reward), and putting a node due for it in the heuristic's order
    (``settings.ordered``, ``clan_weights`` as for :func:`search`)."""
    widening = settings.widening
    breadth = settings.root_breadth
    eager = not widening
    ordered = settings.ordered
    order_after = settings.order_after
    max_nodes = settings.max_nodes
    made = [0]  # nodes this search has made
    c = settings.exploration
    rand = rng.random
    log = math.log
    sqrt = math.sqrt
    # roots[x] == sqrt(x) for every visit count x a child can have (<= the root's visits).
    roots = [sqrt(x) for x in range(root.total + 1)]

    def walk(st: GameState, path: list[tuple[_Node, int]]) -> None:
        if root.total >= len(roots):
            roots.extend(map(sqrt, range(len(roots), 2 * len(roots))))
        node = root
        while True:
            n = node.n
            tried = len(n)
            total = node.total
            fresh = False
            if not widening or tried < widening * sqrt(
                    (total * breadth if node is root else total) + 1):
                if ordered and not node.sorted and total >= order_after:
                    if not node.full:
                        node.complete(st, rand)
                    node.sort_untried(st, clan_weights[node.player])  # type: ignore[index]
                fresh = tried < len(node.actions) if node.full else node.draw(st, rand)
            if fresh:
                i = tried
                n.append(1)
                node.w.append(0.0)
                node.children.append(None)
            else:
                k = c * sqrt(log(total))
                best = -1.0
                i = j = 0
                for cn, cw in zip(n, node.w, strict=True):
                    v = (cw + k * roots[cn]) / cn  # mean + k / sqrt(n)
                    if v > best:
                        best = v
                        i = j
                    j += 1  # noqa: SIM113 (enumerate costs a tuple per child)
                n[i] += 1
            node.total = total + 1
            code = node.actions[i]
            st.push_action(code & _MASK, node.orders.get(code), undo=False)
            path.append((node, i))
            if fresh or st.is_over:
                return
            child = node.children[i]
            if child is None:
                if made[0] >= max_nodes:
                    return  # the tree is as large as it may grow: a playout from here
                made[0] += 1
                child = node.children[i] = _Node((node.player + 1) % nplayers, st, rng, eager)
            node = child

    return walk


def result_of(root: _Node, done: int) -> Result:
    """The root's most visited move (then the most rewarded; then the first tried)."""
    visits: dict[Move, int] = {}
    values: dict[Move, float] = {}
    best_code, best_n, best_w = root.actions[0], -1, 0.0
    for code, cn, cw in zip(root.actions, root.n, root.w, strict=False):
        move = decode(code, root.orders)
        visits[move] = cn
        values[move] = cw / cn
        if cn > best_n or (cn == best_n and cw > best_w):
            best_code, best_n, best_w = code, cn, cw
    return Result(decode(best_code, root.orders), done, visits, root, values)


def _rewards(
    state: GameState, clans: ClanIndices, margin_weight: float, margin_scale: float
) -> list[float]:
    """Each player's reward at the end of a simulation under ``clans`` (R20, R21)."""
    points = state.points
    scores = [points[k] + chips for k, chips in zip(clans, state.chips, strict=True)]
    top = max(scores)
    winners = scores.count(top)
    share = 1.0 / winners
    if not margin_weight:
        return [share if s == top else 0.0 for s in scores]
    # The best score among the others: the top one, unless a player holds it alone.
    runner_up = max((x for x in scores if x != top), default=top) if winners == 1 else top
    keep = 1.0 - margin_weight
    half = margin_weight * 0.5
    out = []
    for s in scores:
        if s == top:
            margin = (s - runner_up) / margin_scale
            win = keep * share
        else:
            margin = (s - top) / margin_scale
            win = 0.0
        # The margin counts up to margin_scale points either way.
        if margin > 1.0:
            margin = 1.0
        elif margin < -1.0:
            margin = -1.0
        out.append(win + half * (1.0 + margin))
    return out


class Sampler:
    """Draws a determinisation: one of ``hypotheses``, uniformly or with probabilities
    (by inverse CDF: ``cum``, the running sums, and their ``total``)."""

    __slots__ = ("cum", "hypotheses", "last", "total", "weighted")

    def __init__(self, hypotheses: Sequence[ClanIndices],
                 probs: Sequence[float] | None = None) -> None:
        self.hypotheses = list(hypotheses)
        self.last = len(self.hypotheses) - 1
        self.weighted = probs is not None
        self.cum: list[float] = []
        self.total = 0.0
        if probs is not None:
            total = 0.0
            for p in probs:
                total += p
                self.cum.append(total)
            assert total > 0, "a belief with no mass"
            self.total = total

    def __call__(self, rng: random.Random) -> ClanIndices:
        if self.weighted:
            return self.hypotheses[min(bisect_right(self.cum, rng.random() * self.total),
                                       self.last)]
        return self.hypotheses[int(rng.random() * len(self.hypotheses))]


def uniform_sampler(hypotheses: Sequence[ClanIndices]) -> Sampler:
    """Draw one of ``hypotheses`` uniformly."""
    return Sampler(hypotheses)


def weighted_sampler(hypotheses: Sequence[ClanIndices], probs: Sequence[float]) -> Sampler:
    """Draw one of ``hypotheses`` with probabilities ``probs`` (by inverse CDF)."""
    return Sampler(hypotheses, probs)
