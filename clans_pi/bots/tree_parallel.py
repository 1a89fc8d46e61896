"""One search tree on several cores: the tree in one process, its simulations on helpers.

Root parallelism (every worker its own tree, which :mod:`.parallel` did before) splits the
iterations into trees that each see a third of them; at two players three trees of 2,500
iterations won 0.333 of 24 games against one tree of 10,000 where one tree of 7,500 won
0.646 (docs/BENCHMARKS.md). Here one process keeps the one tree and walks it (selection and
expansion, :func:`.ismcts.walker`), and the simulations (a random playout from each new
edge and its rewards) run on helper processes, ``batch`` leaves at a time. This is tree
parallelisation with a virtual loss (Chaslot, Winands and van den Herik, "Parallel
Monte-Carlo Tree Search", 2008): a leaf's visits are counted on the way down and its reward
added when it comes back, so the walks meanwhile see the visits in flight as losses and
spread out.

The helpers also order new nodes (Hard's heuristic, :func:`.ismcts.rank`, a quarter of the
tree process's time when it did it itself): a node due to be ordered goes on drawing its
children at random until its order comes back with its batch.

**Reproducible.** A batch's rewards and orders depend only on the batch (its leaves and
the seed drawn for it from the search's random numbers), not on which process computed
them, and at an iteration budget batch ``k`` is backed up just after batch ``k + lag - 1``
is sent, whenever its rewards arrived (``lag`` is set by the number of workers). So for a
number of workers an iteration budget gives the same search and move whichever process
simulates each batch: on the helpers, on the tree's process, on one process for all
(:class:`InlineFarm`, for tournaments and tests), or after a helper has died. At a
deadline (at the table) a batch is backed up as soon as its rewards are in, in any order,
and the tree's process waits only when ``lag`` batches are out: never more stale than at
a budget, and nobody idles; the walks stop as long before the deadline as a batch takes to
come back, so that the search ends at it.

**The helpers' pipes.** A leaf goes down as ints: the determinisation's clans, the number
of moves, and the moves' action codes (:mod:`.ismcts`), flagged with :data:`HAS_ORDER` when
the move carries one of several village orders (R11: the helper looks the order up again,
``village_orders`` being the same in every process). A helper that has gone (killed) is
dropped and its batches are simulated here: the search loses nothing but speed.
"""

from __future__ import annotations

import random
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection

from ..rules.moves import Move
from ..rules.state import GameState
from .base import Cancelled
from .ismcts import (
    _MASK,
    ClanIndices,
    Result,
    Settings,
    _Node,
    _rewards,
    actions_with_orders,
    prepare_root,
    rank,
    result_of,
    walker,
)

__all__ = [
    "BATCH",
    "HAS_ORDER",
    "Farm",
    "HelperFarm",
    "InlineFarm",
    "lag_for",
    "leaf_code",
    "push_code",
    "search",
    "simulate_batch",
]

#: Leaves sent to a helper at a time: each message costs a pipe write and a wake-up; each
#: leaf in flight is a visit the walks see without its reward.
BATCH = 16
#: Batches a helper may hold at once (one simulating, one waiting), so it never idles
#: while the tree's process writes the next.
PER_HELPER = 2
#: A flag on an action code whose move carries one of several village orders (R11).
HAS_ORDER = 1 << 24

#: A batch as it goes to a helper: its random seed, its leaves as ints, and the nodes to
#: order as (leaf, depth): the node ``depth`` moves down that leaf's path.
Batch = tuple[int, list[int], list[tuple[int, int]]]
#: What comes back: each leaf's rewards (per player) and, per node to order, its children
#: in the heuristic's order and their village orders.
Answer = tuple[list[list[float]], list[tuple[list[int], dict[int, tuple[int, ...]]]]]


def lag_for(helpers: int) -> int:
    """Batches sent before the first of them is backed up, for ``helpers`` helpers: as many
    as they hold at once, and one the tree's process simulates itself when they are busy."""
    return PER_HELPER * helpers + 1


def simulate_batch(
    state: GameState,
    batch: Batch,
    settings: Settings,
    clan_weights: Sequence[Sequence[float]] | None,
) -> Answer:
    """The rewards of ``batch``'s leaves below ``state`` (a random playout each, as
    :func:`.ismcts.search` simulates) and the orders of its nodes to order."""
    seed, data, requests = batch
    rng = random.Random(seed)
    rand = rng.random
    nplayers = state.num_players
    mw, ms = settings.margin_weight, settings.margin_scale
    wanted = sorted(range(len(requests)), key=lambda r: requests[r])
    orderings: list[tuple[list[int], dict[int, tuple[int, ...]]]] = [([], {})] * len(requests)
    rewards: list[list[float]] = []
    pos = leaf = r = 0
    while pos < len(data):
        clans = tuple(data[pos : pos + nplayers])
        moves = data[pos + nplayers]
        pos += nplayers + 1
        st = state.copy(stack=False)
        for depth in range(moves + 1):
            while r < len(wanted) and requests[wanted[r]] == (leaf, depth):
                orderings[wanted[r]] = ranked_children(st, clan_weights, rng)
                r += 1
            if depth == moves:
                break
            push_code(st, data[pos + depth])
        pos += moves
        st.playout(rand)
        rewards.append(_rewards(st, clans, mw, ms))
        leaf += 1
    return rewards, orderings


def simulate_kept(
    seed: int,
    leaves: Sequence[tuple[GameState, ClanIndices]],
    to_order: Sequence[tuple[int, GameState]],
    settings: Settings,
    clan_weights: Sequence[Sequence[float]] | None,
) -> Answer:
    """:func:`simulate_batch` for a batch walked on this process, from the positions the
    walks kept: each leaf's (played out in place) with its determinisation, and each node
    to order's, by leaf in walking order. No replay, and the same random numbers drawn in
    the same order, so the same answer as a helper's."""
    rng = random.Random(seed)
    rand = rng.random
    mw, ms = settings.margin_weight, settings.margin_scale
    orderings: list[tuple[list[int], dict[int, tuple[int, ...]]]] = []
    rewards: list[list[float]] = []
    r = 0
    for leaf, (st, clans) in enumerate(leaves):
        while r < len(to_order) and to_order[r][0] == leaf:
            orderings.append(ranked_children(to_order[r][1], clan_weights, rng))
            r += 1
        st.playout(rand)
        rewards.append(_rewards(st, clans, mw, ms))
    return rewards, orderings


def leaf_code(node: _Node, i: int) -> int:
    """Child ``i`` of ``node`` as a leaf's move goes to a helper: its action code, flagged
    with :data:`HAS_ORDER` when it carries one of several village orders (R11)."""
    code = node.actions[i]
    return code | HAS_ORDER if code in node.orders else code


def push_code(state: GameState, code: int) -> None:
    """Play a move sent as :func:`leaf_code` (its village order the ``k``-th of
    ``state.village_orders``, as the tree numbered it, R11)."""
    order = None
    if code & HAS_ORDER:
        k = (code & (HAS_ORDER - 1)) >> 12
        order = state.village_orders(Move(code >> 6 & 63, code & 63))[k]
    state.push_action(code & _MASK, order, undo=False)


def ranked_children(
    state: GameState, clan_weights: Sequence[Sequence[float]] | None, rng: random.Random
) -> tuple[list[int], dict[int, tuple[int, ...]]]:
    """Every child of ``state`` (R8, R9, R11) in the heuristic's order for its mover, ties
    in random order, and the village orders of those that have one."""
    assert clan_weights is not None, "ordering needs clan weights"
    codes, orders = actions_with_orders(state)
    rng.shuffle(codes)
    rank(state, codes, clan_weights[state.current_player])
    return codes, orders


class Farm:
    """Where a search's batches are simulated: :meth:`begin` a search; for each batch
    ``k`` (numbered from 0 in order) ask whether it is to be simulated on the tree's
    process (:meth:`local`), then :meth:`put` its answer or :meth:`submit` it; take each
    answer once (:meth:`answer`, in order at an iteration budget, as they come at a
    deadline). ``lag``: the batches a search keeps in flight."""

    lag = 1

    def tail(self) -> float:
        """Seconds a batch sent now takes to come back (a search at a deadline stops
        walking that long before it)."""
        return 0.0

    def begin(self, job: object, state: GameState, settings: Settings,
              clan_weights: Sequence[Sequence[float]] | None) -> None:
        """The next search is of ``state`` (``job``, see :mod:`.parallel`)."""
        raise NotImplementedError

    def submit(self, k: int, batch: Batch) -> None:
        raise NotImplementedError

    def local(self) -> bool:
        """The next batch is to be simulated on this process (:func:`simulate_kept`)."""
        raise NotImplementedError

    def put(self, k: int, answer: Answer) -> None:
        """Batch ``k``'s answer, simulated on this process."""
        raise NotImplementedError

    def answer(self, k: int) -> Answer:
        raise NotImplementedError

    def ready(self, k: int) -> bool:
        """Batch ``k``'s answer has come (:meth:`answer` will not wait)."""
        raise NotImplementedError

    def drain(self) -> None:
        """Forget the batches not answered yet (a search cancelled)."""


class InlineFarm(Farm):
    """Every batch simulated here, at once: the same search as on ``helpers`` helpers,
    on one core (tournaments at iteration budgets, tests)."""

    def __init__(self, helpers: int) -> None:
        self.lag = lag_for(helpers)
        self._answers: dict[int, Answer] = {}
        self._search: tuple[GameState, Settings, Sequence[Sequence[float]] | None] | None = None

    def begin(self, job: object, state: GameState, settings: Settings,
              clan_weights: Sequence[Sequence[float]] | None) -> None:
        self._search = (state, settings, clan_weights)
        self._answers.clear()

    def submit(self, k: int, batch: Batch) -> None:
        self._answers[k] = self.simulate(batch)

    def local(self) -> bool:
        return True

    def put(self, k: int, answer: Answer) -> None:
        self._answers[k] = answer

    def simulate(self, batch: Batch) -> Answer:
        assert self._search is not None, "begin() first"
        state, settings, clan_weights = self._search
        return simulate_batch(state, batch, settings, clan_weights)

    def answer(self, k: int) -> Answer:
        return self._answers.pop(k)

    def ready(self, k: int) -> bool:
        return True

    def drain(self) -> None:
        self._answers.clear()


class HelperFarm(Farm):
    """Batches sent to helper processes down ``conns`` (each serving :func:`help_search`),
    a helper at most :data:`PER_HELPER` at a time; when every helper is busy, a batch is
    simulated here. The helpers must have been given the search's position (:meth:`begin`).
    """

    def __init__(self, conns: Sequence[Connection], *, simulate_here: bool = True) -> None:
        self.conns = list(conns)
        #: False: wait for a helper instead (to measure what the tree's process costs).
        self.simulate_here = simulate_here
        self.lag = lag_for(len(self.conns))
        self._held: dict[Connection, deque[tuple[int, Batch]]] = {c: deque() for c in conns}
        self._where: dict[int, Connection | None] = {}
        self._answers: dict[int, Answer] = {}
        self._local: InlineFarm | None = None
        self._sent_at: dict[int, float] = {}
        #: Seconds from sending a batch to its answer, averaged over the recent ones.
        self.latency = 0.0

    def tail(self) -> float:
        return self.latency if self.conns else 0.0

    @property
    def helpers(self) -> int:
        return len(self.conns)

    def begin(self, job: object, state: GameState, settings: Settings,
              clan_weights: Sequence[Sequence[float]] | None) -> None:
        """Tell the helpers the next search's position (``job``, see :mod:`.parallel`)."""
        self._local = InlineFarm(self.helpers)
        self._local.begin(job, state, settings, clan_weights)
        self._answers.clear()
        self._where.clear()
        for conn in list(self.conns):
            try:
                conn.send(("root", job))
            except OSError:
                self._drop(conn)

    def local(self) -> bool:
        return self.simulate_here and all(len(self._held[c]) >= PER_HELPER
                                          for c in self.conns)

    def put(self, k: int, answer: Answer) -> None:
        self._answers[k] = answer
        self._where[k] = None

    def submit(self, k: int, batch: Batch) -> None:
        assert self._local is not None, "begin() first"
        free = [c for c in self.conns if len(self._held[c]) < PER_HELPER]
        if not free and self.conns and not self.simulate_here:
            self._receive(min(self.conns, key=lambda c: self._held[c][0][0]))
            free = [c for c in self.conns if len(self._held[c]) < PER_HELPER]
        if free:
            conn = min(free, key=lambda c: len(self._held[c]))
            try:
                conn.send(("batch", k, batch))
            except OSError:
                self._drop(conn)
            else:
                self._held[conn].append((k, batch))
                self._where[k] = conn
                self._sent_at[k] = time.monotonic()
                return
        self._answers[k] = self._simulate(batch)
        self._where[k] = None

    def answer(self, k: int) -> Answer:
        conn = self._where.pop(k)
        while k not in self._answers:
            assert conn is not None and conn in self.conns
            self._receive(conn)
        return self._answers.pop(k)

    def ready(self, k: int) -> bool:
        while k not in self._answers:
            conn = self._where[k]
            if conn is None or conn not in self.conns or not conn.poll():
                return k in self._answers  # (a helper dropped: simulated here)
            self._receive(conn)
        return True

    def _receive(self, conn: Connection) -> None:
        """The answer to ``conn``'s oldest batch (simulated here if the helper has gone)."""
        try:
            number, answer = conn.recv()
        except (EOFError, OSError):
            self._drop(conn)
            return
        held_k, _ = self._held[conn].popleft()
        assert held_k == number, "a helper answered out of order"
        self._answers[number] = answer
        took = time.monotonic() - self._sent_at.pop(number, time.monotonic())
        self.latency = took if not self.latency else 0.8 * self.latency + 0.2 * took

    def drain(self) -> None:
        for conn in list(self.conns):
            while self._held[conn]:
                try:
                    conn.recv()
                except (EOFError, OSError):
                    self._drop(conn, simulate=False)
                    break
                self._held[conn].popleft()
        self._answers.clear()
        self._where.clear()
        self._sent_at.clear()

    def _drop(self, conn: Connection, *, simulate: bool = True) -> None:
        """A helper has gone: its batches are simulated here (unless nobody wants them)."""
        self.conns.remove(conn)
        for k, batch in self._held.pop(conn):
            if simulate:
                self._answers[k] = self._simulate(batch)
        conn.close()

    def _simulate(self, batch: Batch) -> Answer:
        assert self._local is not None, "begin() first"
        return self._local.simulate(batch)

    def close(self) -> None:
        for conn in self.conns:
            conn.close()
        self.conns = []


def help_search(conn: Connection, build: Callable[[object], tuple[GameState, Settings,
                Sequence[Sequence[float]] | None]]) -> None:
    """A helper process's loop: simulate the batches that come down ``conn`` below the
    position of the last ``("root", job)`` (``build(job)``: its state, settings and clan
    weights), until ``conn`` closes or says None."""
    state: GameState | None = None
    settings: Settings | None = None
    weights: Sequence[Sequence[float]] | None = None
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        if message[0] == "root":
            state, settings, weights = build(message[1])
            continue
        _, k, batch = message
        assert state is not None and settings is not None, "a batch before its root"
        answer = simulate_batch(state, batch, settings, weights)
        try:
            conn.send((k, answer))
        except OSError:
            return


def search(
    state: GameState,
    sample: Callable[[random.Random], ClanIndices],
    rng: random.Random,
    settings: Settings,
    farm: Farm,
    *,
    iterations: int | None = None,
    deadline: float | None = None,
    cancel: threading.Event | None = None,
    clan_weights: Sequence[Sequence[float]] | None = None,
    root: _Node | None = None,
    batch: int = BATCH,
) -> Result:
    """:func:`.ismcts.search`, one tree whose simulations ``farm`` runs, ``batch`` leaves
    at a time, ``farm.lag`` batches in flight. Every iteration selected is backed up before
    the search returns (its ``iterations`` are exactly the budget's); a cancel drains the
    farm and raises :class:`~.base.Cancelled`."""
    root = prepare_root(state, rng, settings, clan_weights, root)
    lag = farm.lag
    nplayers = state.num_players
    # This batch's leaves (as ints for a helper), paths, and nodes to order: (leaf, depth,
    # node); walked to be simulated here: its leaves' positions and determinisations, and
    # the positions of its nodes to order (by leaf).
    data: list[int] = []
    paths: list[list[tuple[_Node, int]]] = []
    requests: list[tuple[int, int, _Node]] = []
    here = farm.local()
    kept: list[tuple[GameState, ClanIndices]] = []
    kept_order: list[tuple[int, GameState]] = []

    def order_later(node: _Node, st: GameState, depth: int) -> None:
        node.sorted = True  # asked for: it draws at random until the order comes back
        requests.append((len(paths), depth, node))
        if here:
            kept_order.append((len(paths), st.copy(stack=False)))

    walk = walker(root, nplayers, rng, settings, order_later)
    flying: deque[tuple[int, list[list[tuple[_Node, int]]], list[_Node]]] = deque()
    monotonic = time.monotonic
    is_set = cancel.is_set if cancel is not None else None
    getrandbits = rng.getrandbits
    sent = 0
    done = 0
    # When the walks stop at a deadline: before it by the time a batch takes to come back.
    stop = None if deadline is None else deadline - farm.tail()

    def backup(at: int = 0) -> None:
        k, leaves, nodes = flying[at]
        del flying[at]
        rewards, orderings = farm.answer(k)
        for path, reward in zip(leaves, rewards, strict=True):
            for node, i in path:
                node.w[i] += reward[node.player]
        for node, (codes, orders) in zip(nodes, orderings, strict=True):
            tried = node.actions[: len(node.n)]
            seen = set(tried)
            node.actions[len(tried) :] = [code for code in codes if code not in seen]
            node.orders.update(orders)
            node.full = True

    def flush() -> None:
        nonlocal data, paths, requests, sent, here, kept, kept_order, stop
        seed = getrandbits(63)
        if here:
            farm.put(sent, simulate_kept(seed, kept, kept_order, settings, clan_weights))
        else:
            farm.submit(sent, (seed, data, [(j, d) for j, d, _ in requests]))
        flying.append((sent, paths, [node for _, _, node in requests]))
        sent += 1
        data, paths, requests, kept, kept_order = [], [], [], [], []
        if iterations is None:  # at a deadline, what has come back, in any order
            at = 0
            while at < len(flying):
                if farm.ready(flying[at][0]):
                    backup(at)
                else:
                    at += 1
            stop = deadline - farm.tail()
        while len(flying) >= lag:
            backup()
        here = farm.local()  # once the backups have freed what they could

    try:
        while True:
            if is_set is not None and is_set():
                raise Cancelled()
            if iterations is not None:
                if done >= iterations:
                    break
            elif done and monotonic() >= stop:  # type: ignore[operator]
                break
            clans = sample(rng)
            st = state.copy(stack=False)
            path: list[tuple[_Node, int]] = []
            walk(st, path)
            if here:
                kept.append((st, clans))
            else:
                data.extend(clans)
                data.append(len(path))
                for node, i in path:
                    data.append(leaf_code(node, i))
            paths.append(path)
            done += 1
            if len(paths) >= batch:
                flush()
        if paths:
            flush()
        while flying:
            backup()
    except BaseException:
        # The tree is dropped (its visits in flight never get their rewards); the helpers'
        # batches are taken and thrown away, so that the next search gets its own.
        farm.drain()
        raise
    return result_of(root, done)
