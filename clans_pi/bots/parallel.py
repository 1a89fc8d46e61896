"""Searching on several cores: root-parallel ISMCTS in worker processes.

Every worker searches the same position with its own random numbers (its own
determinisations of the others' clans and its own playouts) in its own tree; when they
are done the root's statistics (how often each move was chosen and the rewards it
brought) are summed and the move chosen most often is played. This is root
parallelisation (Chaslot, Winands and van den Herik, "Parallel Monte-Carlo Tree Search",
2008): nothing is shared while searching, so nothing is locked, and an iteration costs what
it costs on one core. The workers are processes because threads share one interpreter
lock: two searching threads run no faster than one.

A worker gets a :class:`Job`: one player's public game, their clan and the assignments the
search imagines for the others (R22: never the real clans), and searches until its share
of an iteration budget or a deadline. The workers are started once (``spawn``: a fresh
interpreter that imports only the rules and the bots, never the screen or the threads of
the game) and serve every search of the game; each keeps the tree of its last search for
each bot, so Hard's next search starts from what it learnt (:mod:`.tree`).

Cancelling (undo, a new game, quitting) writes to one shared number the workers read
every iteration (every few milliseconds on the compiled core: a chunk of iterations); a
worker whose game process has gone away (killed, crashed) sees its pipe close and exits,
and stops searching at once if it was.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from typing import Any

from ..compiled import core as compiled_core
from ..rules.board import Board
from ..rules.epochs import EpochChart
from ..rules.moves import Move
from ..rules.state import GameState
from ..service.logs import where
from . import compiled_search
from .base import Cancelled
from .ismcts import (
    ClanIndices,
    Result,
    Settings,
    _Node,
    decode,
    search,
    uniform_sampler,
    weighted_sampler,
)
from .tree import Tree

__all__ = [
    "Job",
    "PoolBroken",
    "RootStats",
    "SearchPool",
    "auto_workers",
    "merge",
    "run_job",
    "split",
    "worker_job",
]

#: The start method of the workers: a fresh interpreter. Forking the game's process would
#: copy its threads' locks (the screen, the phones' server, the seat devices) mid-use.
START_METHOD = "spawn"
#: A worker keeps the trees of this many bots (the computer seats and the hint).
TREES_KEPT = 6
#: How often (seconds) a search waiting for its workers looks at its cancel event.
POLL_S = 0.05
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


def split(iterations: int, workers: int) -> list[int]:
    """``iterations`` shared as evenly as can be over ``workers`` (the first get one more)."""
    base, extra = divmod(iterations, workers)
    return [base + (i < extra) for i in range(workers)]


@dataclass(frozen=True)
class Job:
    """One search, as a worker needs it: one player's public game and what they imagine.

    ``owner`` names the bot (its trees are kept apart), ``game`` the game and the viewer
    (a kept tree is used only for the same one); ``clans`` is any assignment consistent with
    the viewer's clan, for rebuilding (the clans change no move, see :mod:`.base`);
    ``hypotheses`` and ``probs`` are the assignments the search draws from (CLANS indices).
    ``seed`` None draws fresh random numbers; else worker k uses ``f"{seed}:w{k}"`` (worker
    0 just ``seed``, so one worker searches as the bot always has)."""

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


def worker_job(job: Job, searching: int) -> Job:
    """``job`` as each of ``searching`` workers searches it: its root widens as one tree
    with all their iterations would (:attr:`.ismcts.Settings.root_breadth`)."""
    return replace(job, settings=replace(job.settings, root_breadth=float(searching)))


@dataclass(frozen=True)
class RootStats:
    """What one worker's search found at the root: for each move it tried (an action code,
    see :mod:`.ismcts`), its visits and summed rewards; the village orders of the codes
    that have one; the iterations it ran."""

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


def merge(parts: Sequence[RootStats]) -> Result:
    """The move chosen most often over every worker's root (then the one with the most
    reward; then the first found), and every iteration counted."""
    n: dict[int, int] = {}
    w: dict[int, float] = {}
    orders: dict[int, tuple[int, ...]] = {}
    for part in parts:
        orders.update(part.orders)
        for code, cn, cw in zip(part.codes, part.n, part.w, strict=True):
            n[code] = n.get(code, 0) + cn
            w[code] = w.get(code, 0.0) + cw
    assert n, "no worker searched"
    best = max(n, key=lambda code: (n[code], w[code]))
    visits = {decode(code, orders): cn for code, cn in n.items()}
    values = {decode(code, orders): w[code] / cn for code, cn in n.items()}
    return Result(decode(best, orders), sum(p.iterations for p in parts), visits,
                  values=values)


def run_job(
    job: Job,
    board: Board,
    chart: EpochChart,
    trees: dict[str, Tree],
    *,
    part: int = 0,
    iterations: int | None = None,
    deadline: float | None = None,
    cancel: Any = None,
    state: GameState | None = None,
) -> Result:
    """Search ``job`` here (worker number ``part``), starting from the kept tree when the
    job allows it and keeping the new one in ``trees``; in the compiled core when it is
    there (:mod:`clans_pi.compiled`: the same result), else in Python. ``state``: the job's
    game, when the caller has rebuilt it already (left unchanged)."""
    if state is None:
        state = GameState(board, chart, job.players, job.clans, job.initial_huts)
        for move in job.moves:
            state.push(move, undo=False)
    seed = job.seed if part == 0 or job.seed is None else f"{job.seed}:w{part}"
    rng = random.Random(seed) if seed is not None else random.Random()
    if job.weighted:
        sample = weighted_sampler(job.hypotheses, job.probs)
    else:
        sample = uniform_sampler(job.hypotheses)
    core = compiled_core()
    root = None
    tree = trees.pop(job.owner, None)
    if job.reuse and tree is not None:
        root = tree.reuse(job.game, job.moves)
        if not isinstance(root, compiled_search.CoreNode if core else _Node):
            root = None  # a tree of the other path (the path was changed between moves)
    if core is not None:
        result = compiled_search.search(
            core, state, sample, rng, job.settings, iterations=iterations,
            deadline=deadline, cancel=cancel, clan_weights=job.clan_weights, root=root)
    else:
        result = search(state, sample, rng, job.settings, iterations=iterations,
                        deadline=deadline, cancel=cancel, clan_weights=job.clan_weights,
                        root=root)
    if job.reuse and result.root is not None:
        tree = tree if tree is not None else Tree()
        tree.keep(job.game, job.moves, result.root)
        trees[job.owner] = tree  # the most recent last
        while len(trees) > TREES_KEPT:
            del trees[next(iter(trees))]
    return result


class PoolBroken(RuntimeError):
    """A worker process has gone (killed, out of memory): the pool cannot search."""


class SearchPool:
    """``workers`` search processes for the game's computer players and hints, started at
    once and kept until :meth:`close`. One search at a time (a second waits)."""

    def __init__(self, workers: int, board: Board, chart: EpochChart) -> None:
        if workers < 2:
            raise ValueError(f"a pool of {workers} worker(s): one searches on the game's "
                             "own process, without a pool")
        ctx = multiprocessing.get_context(START_METHOD)
        self.workers = workers
        # The number of the search under way; anything else tells a worker to stop.
        self._live = ctx.RawValue("q", 0)
        self._lock = threading.Lock()
        self._serial = 0
        self._conns: list[Connection] = []
        self._procs: list[multiprocessing.process.BaseProcess] = []
        self._ready: set[int] = set()
        self._answers: dict[Connection, RootStats] = {}
        self.broken: str | None = None
        board_data, chart_data = board.to_dict(), chart.to_dict()
        for i in range(workers):
            here, there = ctx.Pipe()
            proc = ctx.Process(target=_serve, name=f"clans-search-{i + 1}", daemon=True,
                               args=(i, there, self._live, board_data, chart_data))
            proc.start()
            there.close()  # the worker's end: when the worker goes, reading here ends
            self._conns.append(here)
            self._procs.append(proc)

    def __enter__(self) -> SearchPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pids(self) -> list[int]:
        """The workers' process ids (tests: none is left behind)."""
        return [p.pid for p in self._procs if p.pid is not None]

    @property
    def usable(self) -> bool:
        return self.broken is None and bool(self._conns)

    def ready(self, timeout: float = 0.0) -> bool:
        """Every worker has started and said so (waits up to ``timeout`` s)."""
        end = time.monotonic() + timeout
        with self._lock:
            while self.usable and len(self._ready) < self.workers:
                left = end - time.monotonic()
                if not self._read(wait(self._conns, max(0.0, left)), 0):
                    break
                if left <= 0:
                    break
        return self.usable and len(self._ready) == self.workers

    def search(self, job: Job, *, iterations: int | None = None, deadline: float | None = None,
               cancel: threading.Event | None = None,
               meanwhile: Callable[[], object] | None = None) -> Result:
        """Search ``job`` on every worker (an iteration budget is shared out, a deadline is
        every worker's) and merge their roots. ``meanwhile`` is called once in this
        process while the workers search (work of the same move that needs no search: a
        Pi's fourth core does it, not the workers' time). Raises :class:`~.base.Cancelled`
        once ``cancel`` is set (after ``meanwhile`` has returned; the workers stop at their
        next iteration), :class:`PoolBroken` if a worker has gone."""
        assert iterations is not None or deadline is not None, "no budget"
        with self._lock:
            if not self.usable:
                raise PoolBroken(self.broken or "the pool is closed")
            self._serial += 1
            serial = self._serial
            self._live.value = serial
            shares = split(iterations, self.workers) if iterations is not None \
                else [None] * self.workers
            job = worker_job(job, sum(share != 0 for share in shares))
            asked = []
            for part, (conn, share) in enumerate(zip(self._conns, shares, strict=True)):
                if share == 0:
                    continue
                try:
                    conn.send((serial, job, part, share, deadline))
                except OSError:
                    self._break(f"search worker {part + 1} has stopped")
                    raise PoolBroken(self.broken) from None
                asked.append(conn)
            self._answers = {}
            pending = list(asked)
            try:
                if meanwhile is not None:
                    meanwhile()
                while pending:
                    if cancel is not None and cancel.is_set():
                        raise Cancelled()
                    ready = wait(pending, POLL_S)
                    self._read(ready, serial)
                    pending = [c for c in pending if c not in self._answers]
            except BaseException:
                self._live.value = 0  # every worker stops at its next iteration
                raise
            answers = [self._answers[c] for c in asked]
            self._answers = {}
        return merge(answers)

    def _read(self, conns: list[Any], serial: int) -> bool:
        """Take the messages waiting on ``conns``; True if any was read."""
        got = False
        for conn in conns:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                part = self._conns.index(conn) + 1
                self._break(f"search worker {part} has stopped")
                raise PoolBroken(self.broken) from None
            got = True
            if message[0] == "ready":
                self._ready.add(message[1])
                continue
            number, kind, payload = message
            if number != serial:  # the answer of a search cancelled before
                continue
            if kind == "error":
                self._live.value = 0
                raise RuntimeError(f"a search worker failed: {payload}")
            if kind == "cancelled":  # only when the live number changed: not ours
                continue
            self._answers[conn] = payload
        return got

    def _break(self, why: str) -> None:
        self.broken = why
        self._live.value = 0

    def close(self, timeout: float = 2.0) -> None:
        """Stop the workers and wait for them (``timeout`` s, then they are killed)."""
        self._live.value = 0
        for conn in self._conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        end = time.monotonic() + timeout
        for proc in self._procs:
            proc.join(max(0.0, end - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)
        for conn in self._conns:
            conn.close()
        self._conns = []
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


def _serve(index: int, conn: Connection, live: Any, board_data: Any, chart_data: Any) -> None:
    """A worker process: search the jobs that come down ``conn`` until told to stop or the
    game's process goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the game, which closes us
    parent = os.getppid()
    board, chart = Board.from_dict(board_data), EpochChart.from_dict(chart_data)
    trees: dict[str, Tree] = {}
    conn.send(("ready", index))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        serial, job, part, iterations, deadline = message
        try:
            result = run_job(job, board, chart, trees, part=part, iterations=iterations,
                             deadline=deadline, cancel=_Stop(live, serial, parent))
            answer: tuple = (serial, "ok", RootStats.of(result))
        except Cancelled:
            answer = (serial, "cancelled", None)
        except Exception as exc:  # told to the game; only where, never the message (R22)
            answer = (serial, "error", f"{type(exc).__name__} at {where(exc)}")
        try:
            conn.send(answer)
        except OSError:
            return
