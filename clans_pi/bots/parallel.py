"""Searching on several cores: one tree, kept by one worker process, whose simulations
the other workers run (:mod:`.tree_parallel`).

The first worker walks the tree (selection and expansion) and sends its new leaves, a batch
at a time, to the others, its helpers, which play them out and send back the rewards and
the heuristic's order of the nodes due for one; the first worker simulates a batch itself
when every helper is busy. The workers are processes because threads share one
interpreter lock: two searching threads run no faster than one.

One tree, not a tree each (root parallelisation, which this module did until 2026-11-25):
at two players three trees of 2,500 iterations won 0.333 of 24 games against one tree of
10,000 where one tree of 7,500 won 0.646; splitting the iterations into trees cost most of
what they were worth (docs/BENCHMARKS.md).

The tree's worker gets a :class:`Job`: one player's public game, their clan and the
assignments the search imagines for the others (R22: never the real clans), and searches
until an iteration budget or a deadline. The workers are started once (``spawn``: a fresh
interpreter that imports only the rules and the bots, never the screen or the threads of
the game) and serve every search of the game; the tree's worker keeps the tree of its last
search for each bot, so Hard's next search starts from what it learnt (:mod:`.tree`).

Cancelling (undo, a new game, quitting) writes to one shared number the tree's worker
reads every iteration; a worker whose game process has gone away (killed, crashed) sees its
pipe close and exits, and stops searching at once if it was; the helpers see the tree's
worker go the same way. A helper that goes costs the search nothing but its speed.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from typing import Any

from ..logs import where
from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.moves import Move
from ..rules.state import GameState
from . import tree_parallel
from .base import Cancelled
from .ismcts import (
    ClanIndices,
    Result,
    Settings,
    decode,
    search,
    uniform_sampler,
    weighted_sampler,
)
from .tree import Tree
from .tree_parallel import Farm, HelperFarm, InlineFarm

__all__ = [
    "Job",
    "OneCorePool",
    "PoolBroken",
    "RootStats",
    "SearchPool",
    "auto_workers",
    "run_job",
]

#: The start method of the workers: a fresh interpreter. Forking the game's process would
#: copy its threads' locks (the screen, the phones' server, the seat devices) mid-use.
START_METHOD = "spawn"
#: A worker keeps the trees of this many bots (the computer seats and the hint).
TREES_KEPT = 6
#: How often (seconds) a search waiting for its workers looks at its cancel event.
POLL_S = 0.05
#: How long (seconds) the tree's worker waits for a helper to start before it does without.
HELPER_START_S = 60.0
#: How often (iterations) a worker checks that the game's process is still there.
PARENT_CHECK = 256


def auto_workers(cores: int | None = None) -> int:
    """``[computer] workers = "auto"``: every core but one, so the screen keeps one (a Pi 4:
    3), and at least 1 (a search on the game's own process)."""
    if cores is None:
        try:
            cores = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            cores = os.cpu_count() or 1
    return max(1, cores - 1)


@dataclass(frozen=True)
class Job:
    """One search, as a worker needs it: one player's public game and what they imagine.

    ``owner`` names the bot (its trees are kept apart), ``game`` the game and the viewer
    (a kept tree is used only for the same one); ``clans`` is any assignment consistent with
    the viewer's clan, for rebuilding (the clans change no move, see :mod:`.base`);
    ``hypotheses`` and ``probs`` are the assignments the search draws from (CLANS indices).
    ``seed`` None draws fresh random numbers."""

    owner: str
    game: Hashable
    players: tuple[str, ...]
    clans: tuple[str, ...]
    initial_huts: tuple[str, ...]
    moves: tuple[Move, ...]
    hypotheses: tuple[ClanIndices, ...]
    probs: tuple[float, ...]
    weighted: bool
    settings: Settings
    clan_weights: tuple[tuple[float, ...], ...]
    seed: str | None
    reuse: bool


@dataclass(frozen=True)
class RootStats:
    """What the tree's worker found at the root, as it crosses the pipe: for each move it
    tried (an action code, see :mod:`.ismcts`), its visits and summed rewards; the village
    orders of the codes that have one; the iterations it ran."""

    codes: tuple[int, ...]
    n: tuple[int, ...]
    w: tuple[float, ...]
    orders: dict[int, tuple[int, ...]]
    iterations: int

    @classmethod
    def of(cls, result: Result) -> RootStats:
        root = result.root
        assert root is not None
        tried = len(root.n)
        codes = tuple(root.actions[:tried])
        orders = {c: root.orders[c] for c in codes if c in root.orders}
        return cls(codes, tuple(root.n), tuple(root.w), orders, result.iterations)

    def result(self) -> Result:
        """The move chosen most often (then the one with the most reward; then the first
        tried), as :func:`.ismcts.search` chooses, without the tree."""
        assert self.codes, "nothing was searched"
        best = max(range(len(self.codes)), key=lambda i: (self.n[i], self.w[i], -i))
        visits = {decode(c, self.orders): cn for c, cn in zip(self.codes, self.n, strict=True)}
        return Result(decode(self.codes[best], self.orders), self.iterations, visits)


def run_job(
    job: Job,
    board: Board,
    chart: EpochChart,
    trees: dict[str, Tree],
    *,
    iterations: int | None = None,
    deadline: float | None = None,
    cancel: Any = None,
    state: GameState | None = None,
    farm: Farm | None = None,
) -> Result:
    """Search ``job`` here, starting from the kept tree when the job allows it and keeping
    the new one in ``trees``. ``state``: the job's game, when the caller has rebuilt it
    already (left unchanged). With a ``farm`` the tree is searched here and its
    simulations run there (:mod:`.tree_parallel`)."""
    if state is None:
        state = job_state(job, board, chart)
    rng = random.Random(job.seed) if job.seed is not None else random.Random()
    if job.weighted:
        sample = weighted_sampler(job.hypotheses, job.probs)
    else:
        sample = uniform_sampler(job.hypotheses)
    root = None
    tree = trees.pop(job.owner, None)
    if job.reuse and tree is not None:
        root = tree.reuse(job.game, job.moves)
    if farm is None:
        result = search(state, sample, rng, job.settings, iterations=iterations,
                        deadline=deadline, cancel=cancel, clan_weights=job.clan_weights,
                        root=root)
    else:
        farm.begin(job, state, job.settings, job.clan_weights)
        result = tree_parallel.search(state, sample, rng, job.settings, farm,
                                      iterations=iterations, deadline=deadline,
                                      cancel=cancel, clan_weights=job.clan_weights, root=root)
    if job.reuse and result.root is not None:
        tree = tree if tree is not None else Tree()
        tree.keep(job.game, job.moves, result.root)
        trees[job.owner] = tree  # the most recent last
        while len(trees) > TREES_KEPT:
            del trees[next(iter(trees))]
    return result


def job_state(job: Job, board: Board, chart: EpochChart) -> GameState:
    """The public game of ``job``, with its stand-in clans (they change no move)."""
    state = GameState(board, chart, job.players, job.clans, job.initial_huts)
    for move in job.moves:
        state.push(move, undo=False)
    return state


class PoolBroken(RuntimeError):
    """A worker process has gone (killed, out of memory): the pool cannot search."""


class SearchPool:
    """``workers`` search processes for the game's computer players and hints, started at
    once and kept until :meth:`close`: the tree's worker, which the game talks to, and its
    helpers, which only it talks to. One search at a time (a second waits).
    ``simulate_here`` False: the tree's worker leaves every simulation to its helpers
    (``bench.py`` measures what the tree alone costs)."""

    def __init__(self, workers: int, board: Board, chart: EpochChart, *,
                 simulate_here: bool = True) -> None:
        if workers < 2:
            raise ValueError(f"a pool of {workers} worker(s): one searches on the game's "
                             "own process, without a pool")
        ctx = multiprocessing.get_context(START_METHOD)
        self.workers = workers
        # The number of the search under way; anything else tells the tree's worker to stop.
        self._live = ctx.RawValue("q", 0)
        self._lock = threading.Lock()
        self._serial = 0
        self._ready = False
        #: The helpers the tree's worker has, once it said it is ready.
        self.helpers = 0
        self._procs: list[multiprocessing.process.BaseProcess] = []
        self.broken: str | None = None
        self._conn: Connection | None = None
        board_data, chart_data = board.to_dict(), chart.to_dict()
        # The pipes between the tree's worker and its helpers.
        links = [ctx.Pipe() for _ in range(workers - 1)]
        try:
            here, there = ctx.Pipe()
            self._conn = here
            proc = ctx.Process(target=_serve, name="clans-search-1", daemon=True,
                               args=(there, self._live, board_data, chart_data,
                                     [tree_end for tree_end, _ in links], simulate_here))
            proc.start()
            self._procs.append(proc)
            there.close()  # the worker's end: when the worker goes, reading here ends
            for i, (_, helper_end) in enumerate(links, start=2):
                proc = ctx.Process(target=_help, name=f"clans-search-{i}", daemon=True,
                                   args=(helper_end, board_data, chart_data))
                proc.start()
                self._procs.append(proc)
        except BaseException:  # e.g. no memory for another process: none is left behind
            self.close(0.0)
            raise
        finally:
            # Only the two workers hold a link: when one goes, the other reads its end.
            for tree_end, helper_end in links:
                tree_end.close()
                helper_end.close()

    def __enter__(self) -> SearchPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pids(self) -> list[int]:
        """The workers' process ids, the tree's worker first (tests: none is left behind)."""
        return [p.pid for p in self._procs if p.pid is not None]

    @property
    def usable(self) -> bool:
        return self.broken is None and self._conn is not None

    def ready(self, timeout: float = 0.0) -> bool:
        """The tree's worker has started and its helpers too, and it said so (waits up to
        ``timeout`` s)."""
        with self._lock:
            if self.usable and not self._ready and self._conn.poll(timeout):  # type: ignore[union-attr]
                self._receive(0)
        return self.usable and self._ready

    def search(self, job: Job, *, iterations: int | None = None, deadline: float | None = None,
               cancel: threading.Event | None = None) -> Result:
        """Search ``job`` in one tree on every worker until the budget. Raises
        :class:`~.base.Cancelled` as soon as ``cancel`` is set (the tree's worker stops at
        its next iteration), :class:`PoolBroken` if the tree's worker has gone."""
        assert iterations is not None or deadline is not None, "no budget"
        with self._lock:
            if not self.usable:
                raise PoolBroken(self.broken or "the pool is closed")
            self._serial += 1
            serial = self._serial
            self._live.value = serial
            conn = self._conn
            assert conn is not None
            try:
                conn.send((serial, job, iterations, deadline))
            except OSError:
                self._break("search worker 1 has stopped")
                raise PoolBroken(self.broken) from None
            try:
                while True:
                    if cancel is not None and cancel.is_set():
                        raise Cancelled()
                    if conn.poll(POLL_S):
                        answer = self._receive(serial)
                        if answer is not None:
                            return answer.result()
            except BaseException:
                self._live.value = 0  # the tree's worker stops at its next iteration
                raise

    def _receive(self, serial: int) -> RootStats | None:
        """The message waiting from the tree's worker: search ``serial``'s answer, or None
        (it said it is ready, or answered a search cancelled before)."""
        assert self._conn is not None
        try:
            message = self._conn.recv()
        except (EOFError, OSError):
            self._break("search worker 1 has stopped")
            raise PoolBroken(self.broken) from None
        if message[0] == "ready":
            self._ready = True
            self.helpers = message[1]
            return None
        number, kind, payload = message
        if number != serial or kind == "cancelled":  # a search cancelled before
            return None
        if kind == "error":
            self._live.value = 0
            raise RuntimeError(f"a search worker failed: {payload}")
        return payload

    def _break(self, why: str) -> None:
        self.broken = why
        self._live.value = 0

    def close(self, timeout: float = 2.0) -> None:
        """Stop the workers and wait for them (``timeout`` s, then they are killed)."""
        self._live.value = 0
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.send(None)
        end = time.monotonic() + timeout
        for proc in self._procs:
            proc.join(max(0.0, end - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self.broken is None:
            self.broken = "the pool is closed"


class _Stop:
    """A worker's cancel flag for :func:`.ismcts.search`: set once the game has moved on
    from search ``serial`` or the game's process has gone."""

    __slots__ = ("count", "live", "parent", "serial")

    def __init__(self, live: Any, serial: int, parent: int) -> None:
        self.live, self.serial, self.parent = live, serial, parent
        self.count = 0

    def is_set(self) -> bool:
        if self.live.value != self.serial:
            return True
        self.count += 1
        return self.count % PARENT_CHECK == 0 and os.getppid() != self.parent


def _serve(conn: Connection, live: Any, board_data: Any, chart_data: Any,
           helpers: Sequence[Connection], simulate_here: bool = True) -> None:
    """The tree's worker: search the jobs that come down ``conn``, their simulations on
    ``helpers`` (:mod:`.tree_parallel`), until told to stop or the game's process goes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the game, which closes us
    parent = os.getppid()
    board, chart = Board.from_dict(board_data), EpochChart.from_dict(chart_data)
    trees: dict[str, Tree] = {}
    started = []
    for link in helpers:  # each helper says it is ready; one gone or stuck is left out
        with contextlib.suppress(EOFError, OSError):
            if link.poll(HELPER_START_S) and link.recv():
                started.append(link)
                continue
        link.close()
    farm = HelperFarm(started, simulate_here=simulate_here)
    try:
        conn.send(("ready", len(started)))
    except OSError:  # the game has gone already
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        serial, job, iterations, deadline = message
        try:
            result = run_job(job, board, chart, trees, iterations=iterations,
                             deadline=deadline, cancel=_Stop(live, serial, parent), farm=farm)
            answer: tuple = (serial, "ok", RootStats.of(result))
        except Cancelled:
            answer = (serial, "cancelled", None)
        except Exception as exc:  # told to the game; only where, never the message (R22)
            answer = (serial, "error", f"{type(exc).__name__} at {where(exc)}")
        try:
            conn.send(answer)
        except OSError:
            return


def _help(conn: Connection, board_data: Any, chart_data: Any) -> None:
    """A helper process of the tree's worker: simulate its batches below each job's
    position (:func:`.tree_parallel.help_search`) until it goes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    board, chart = Board.from_dict(board_data), EpochChart.from_dict(chart_data)

    def build(job: Any) -> tuple[GameState, Settings, Any]:
        return job_state(job, board, chart), job.settings, job.clan_weights

    try:
        conn.send(("ready",))
    except OSError:
        return
    tree_parallel.help_search(conn, build)


class OneCorePool:
    """A pool's one-tree search (``workers`` of them) on this process: the same search
    and, at an iteration budget, the same moves (:class:`.tree_parallel.InlineFarm`), at
    one core's speed. For tournaments, which play many games at once anyway."""

    usable = True

    def __init__(self, workers: int, board: Board, chart: EpochChart) -> None:
        if workers < 2:
            raise ValueError(f"a pool of {workers} worker(s)")
        self.workers, self.board, self.chart = workers, board, chart
        self._trees: dict[str, Tree] = {}

    def ready(self, timeout: float = 0.0) -> bool:
        return True

    def search(self, job: Job, *, iterations: int | None = None, deadline: float | None = None,
               cancel: threading.Event | None = None) -> Result:
        state = job_state(job, self.board, self.chart)
        result = run_job(job, self.board, self.chart, self._trees, state=state,
                         iterations=iterations, deadline=deadline, cancel=cancel,
                         farm=InlineFarm(self.workers - 1))
        return replace(result, root=None)

    def close(self) -> None:
        self._trees.clear()
