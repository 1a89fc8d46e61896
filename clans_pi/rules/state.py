"""The game state and the move engine (R8-R21).

Occupancy is kept in short per-territory lists of small ints (cheap to index and to copy),
so bots can search fast:

* ``_pack[t]`` packs the huts of territory ``t`` per clan, 4 bits a clan (at most 12 < 16
  huts of one clan exist, R3), so moving a whole group is one addition.
* ``_count[t]`` is the number of huts in ``t``.
* ``_alive[t]`` is 1 when ``t`` holds huts and is not a village: only those can move or be
  moved into (R8, R13). ``_degree[t]`` counts the alive neighbours of ``t``.

An alive territory always has an alive neighbour: a village's neighbours are all empty, and
a territory whose last alive neighbour empties becomes a village at once (R10), which is
exactly when its ``_degree`` drops to 0. So a legal move exists whenever one territory is
alive: a group of fewer than 7 may go to any alive neighbour, and of two neighbouring big
groups the smaller may join the larger (R9). Hence R19 ("no move possible") is exactly
``_nalive == 0``, and legal moves are read off ``_alive`` and ``_count`` when asked for.

Two ways to apply a move, as in python-chess and OpenSpiel: :meth:`GameState.play` checks
everything and reports :mod:`events` (input from people), :meth:`GameState.push` trusts its
caller (search). Both keep an undo stack of snapshots for :meth:`GameState.pop`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import permutations

from . import events as ev
from .board import Board, iter_bits
from .constants import BIG_GROUP, CLAN_INDEX, CLANS, HUTS_PER_CLAN, NUM_CLANS
from .deal_checks import check_players, check_setup
from .epochs import FAVOURABLE, HOSTILE, EpochChart
from .errors import IllegalMoveError, SetupError
from .moves import Move
from .observation import Observation, observe
from .village import Village, pack_huts, unpack_huts

__all__ = [
    "END_NO_MOVES",
    "END_TWELFTH_VILLAGE",
    "GameState",
    "Village",
    "pack_huts",
    "unpack_huts",
]

_EFFECT_NAMES = {FAVOURABLE: "favourable", 0: "neutral", HOSTILE: "hostile"}
_ONE_HUT = tuple(1 << (4 * c) for c in range(NUM_CLANS))  # packed: one hut of clan c
_ALL_CLANS_BITS = sum(_ONE_HUT)  # 0x11111: a bit in each clan's field

END_TWELFTH_VILLAGE = "twelfth_village"  # R18
END_NO_MOVES = "no_moves"  # R19


class GameState:
    """A game of Clans from the deal to the end.

    Players are numbered in turn order: player 0 moves first (R7 is applied when dealing,
    see :func:`clans_pi.rules.setup.deal`). ``clans[i]`` is player ``i``'s secret clan:
    read it only through :meth:`observation` for anything a person sees (R22).
    """

    __slots__ = (
        "_alive",
        "_chips",
        "_clans",
        "_count",
        "_degree",
        "_end",
        "_history",
        "_nalive",
        "_nbr_ids",
        "_owned",
        "_pack",
        "_points",
        "_prior",
        "_stack",
        "_taken",
        "_terrain",
        "_villages",
        "board",
        "chart",
        "initial_huts",
        "players",
    )

    def __init__(
        self,
        board: Board,
        chart: EpochChart,
        players: Sequence[str],
        clans: Sequence[str],
        huts: Sequence[str] | Mapping[int, str],
    ) -> None:
        """Start a game from an explicit deal; raises SetupError if it breaks R3/R5/R6."""
        initial = check_setup(board, players, clans, huts)
        self._start(board, chart, tuple(players), tuple(CLAN_INDEX[c] for c in clans), initial)

    @classmethod
    def _trusted(
        cls,
        board: Board,
        chart: EpochChart,
        players: tuple[str, ...],
        clans: tuple[int, ...],
        initial: tuple[int, ...],
    ) -> GameState:
        """Start a game from a deal known to be valid (used by :func:`setup.deal`)."""
        state = object.__new__(cls)
        state._start(board, chart, players, clans, initial)
        return state

    @classmethod
    def from_position(
        cls,
        board: Board,
        chart: EpochChart,
        players: Sequence[str],
        clans: Sequence[str],
        huts: Mapping[int, Mapping[str, int]],
        *,
        chips_taken: int = 0,
    ) -> GameState:
        """Set up an arbitrary position (for puzzles, tutorials and rule tests).

        ``huts`` maps territory -> {clan: n}; territories not listed are empty. Non-empty
        territories with no non-empty neighbour count as villages founded earlier;
        ``chips_taken`` chips are already gone (their villages are not recorded). Such a
        game has no deal, so it cannot be written as a record.
        """
        check_players(players, clans)
        per_clan = [0] * NUM_CLANS
        pack = [0] * len(board.territories)
        for t, group in huts.items():
            if not isinstance(t, int) or not 0 <= t < len(pack):
                raise SetupError(f"position: there is no territory {t!r}")
            for clan, n in group.items():
                if not isinstance(clan, str) or clan not in CLAN_INDEX:
                    raise SetupError(f"position: territory {t} has unknown clan {clan!r}")
                if not isinstance(n, int) or n < 0:
                    raise SetupError(f"position: territory {t}: {n!r} {clan} huts")
                per_clan[CLAN_INDEX[clan]] += n
                pack[t] += n << (4 * CLAN_INDEX[clan])
        for c, n in enumerate(per_clan):
            if n > HUTS_PER_CLAN:
                raise SetupError(
                    f"position: {n} {CLANS[c]} huts; each clan has {HUTS_PER_CLAN} (R3)"
                )
        if not 0 <= chips_taken < len(chart.chip_epoch) - 1:
            raise SetupError(f"position: {chips_taken} chips taken is out of range")
        state = object.__new__(cls)
        state._start(board, chart, tuple(players), tuple(CLAN_INDEX[c] for c in clans), ())
        state._pack = pack
        state._count = [sum(unpack_huts(p)) for p in pack]
        nonempty = [1 if n else 0 for n in state._count]
        state._degree = [sum(nonempty[u] for u in nbrs) for nbrs in board.neighbor_ids]
        state._alive = bytearray(
            1 if n and d else 0 for n, d in zip(nonempty, state._degree, strict=True)
        )
        state._nalive = sum(state._alive)
        state._prior = frozenset(t for t, n in enumerate(state._count) if n and not state._alive[t])
        state._taken = chips_taken
        if not state._nalive:
            state._end = END_NO_MOVES
        return state

    def _start(
        self,
        board: Board,
        chart: EpochChart,
        players: tuple[str, ...],
        clans: tuple[int, ...],
        initial: tuple[int, ...],
    ) -> None:
        self.board = board
        self.chart = chart
        self.players = players
        self._clans = clans
        self.initial_huts = initial
        self._nbr_ids = board.neighbor_ids
        self._terrain = board.terrain_index
        self._pack = list(map(_ONE_HUT.__getitem__, initial))
        self._count = [1] * len(initial)
        self._alive = bytearray(b"\x01" * len(initial))
        self._degree = list(board.degrees)
        self._nalive = len(initial)
        self._villages: list[tuple] = []  # Village fields; built into Villages when asked
        self._taken = 0
        self._chips = [0] * len(players)
        self._points = [0] * NUM_CLANS
        self._end: str | None = None
        self._history: list[tuple[int, int, Sequence[int] | None]] = []
        self._stack: list[tuple] = []
        self._owned = True  # False when the tables may be shared with an undo snapshot
        self._prior: frozenset[int] = frozenset()  # villages a position began with

    # ----------------------------------------------------------------- queries

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def ply(self) -> int:
        """Number of moves made so far."""
        return len(self._history)

    @property
    def current_player(self) -> int:
        """The player to move (R7: turn order, player 0 first)."""
        return len(self._history) % len(self.players)

    @property
    def is_over(self) -> bool:
        return self._end is not None

    @property
    def end_reason(self) -> str | None:
        """``"twelfth_village"`` (R18), ``"no_moves"`` (R19), or None while playing."""
        return self._end

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves made so far, with the village order each one was given."""
        return tuple(Move(*m) for m in self._history)

    @property
    def villages(self) -> tuple[Village, ...]:
        """The scored villages in founding order (unscored R18 leftovers are not here)."""
        return tuple(Village(*v) for v in self._villages)

    @property
    def chips_taken(self) -> int:
        return self._taken

    @property
    def epoch(self) -> int:
        """The epoch the next village belongs to (R16); the last epoch once all are taken."""
        chip_epoch = self.chart.chip_epoch
        return chip_epoch[min(self._taken + 1, len(chip_epoch) - 1)]

    @property
    def chips(self) -> tuple[int, ...]:
        """Chips per player (public, R22)."""
        return tuple(self._chips)

    @property
    def clan_points(self) -> dict[str, int]:
        """Points per clan on the score track (public, R22)."""
        return {CLANS[c]: p for c, p in enumerate(self._points)}

    @property
    def points(self) -> tuple[int, ...]:
        """:attr:`clan_points` as a tuple in CLANS order (for search: no dict to build)."""
        return tuple(self._points)

    def clan_of(self, player: int) -> str:
        """Return ``player``'s secret clan. Never show this on a shared device before R20."""
        return CLANS[self._clans[player]]

    @property
    def clans(self) -> tuple[str, ...]:
        """Every player's secret clan, in player order. Secret until the end (R22)."""
        return tuple(CLANS[c] for c in self._clans)

    def huts(self, territory: int) -> dict[str, int]:
        """Return ``{clan: n}`` for the clans with huts in ``territory``."""
        return {CLANS[c]: n for c, n in enumerate(unpack_huts(self._pack[territory])) if n}

    def hut_counts(self, territory: int) -> tuple[int, ...]:
        """Return the per-clan hut counts of ``territory`` in CLANS order."""
        return unpack_huts(self._pack[territory])

    def hut_total(self, territory: int) -> int:
        return self._count[territory]

    def is_village(self, territory: int) -> bool:
        """True for a founded village (R10, R13), even if its huts left the board (R14), and
        for one a position began with. Territories cut off after the last chip are not
        villages: they are not considered at all (R18)."""
        return territory in self._prior or any(v[0] == territory for v in self._villages)

    @property
    def live_mask(self) -> int:
        """Bitset of territories that hold huts and are not villages."""
        return sum(1 << t for t, a in enumerate(self._alive) if a)

    def observation(self, viewer: int | None = None) -> Observation:
        """Everything ``viewer`` may know now and nothing else (R22); None: the public view.
        Build anything a person sees from this, never from the state itself."""
        return observe(self, viewer)

    def scores(self) -> tuple[int, ...]:
        """Each player's clan points plus chips (R20). Secret until the end (R22)."""
        return tuple(self._points[c] + self._chips[i] for i, c in enumerate(self._clans))

    def winners(self) -> tuple[int, ...]:
        """Players with the highest score, sharing the win (R21); empty while playing."""
        if self._end is None:
            return ()
        scores = self.scores()
        best = max(scores)
        return tuple(i for i, s in enumerate(scores) if s == best)

    # ------------------------------------------------------------ legal moves

    def legal_mask(self, src: int) -> int:
        """Bitset of the territories the huts of ``src`` may move into now (R8, R9)."""
        alive, count = self._alive, self._count
        if self._end or not alive[src]:
            return 0
        n = count[src]
        return sum(
            1 << d for d in self._nbr_ids[src] if alive[d] and (n < BIG_GROUP or count[d] >= n)
        )

    def legal_targets(self, src: int) -> tuple[int, ...]:
        """Territories the huts of ``src`` may move into now (R8, R9), ascending."""
        if not isinstance(src, int) or not 0 <= src < len(self._count):
            return ()
        return tuple(iter_bits(self.legal_mask(src)))

    def legal_actions(self) -> list[int]:
        """All legal moves as int actions ``src * 64 + dst``, ascending (for search)."""
        if self._end:
            return []
        count, nbr_ids, alive = self._count, self._nbr_ids, self._alive
        actions: list[int] = []
        for src, a in enumerate(alive):
            if a:
                n = count[src]
                base = src << 6
                if n < BIG_GROUP:
                    actions += [base | d for d in nbr_ids[src] if alive[d]]
                else:  # R9
                    actions += [base | d for d in nbr_ids[src] if alive[d] and count[d] >= n]
        return actions

    def legal_moves(self) -> list[Move]:
        """All legal moves (R8, R9), ascending by (src, dst), without village orders."""
        return [Move(a >> 6, a & 63) for a in self.legal_actions()]

    def legal_move_count(self) -> int:
        """Number of legal (src, dst) moves, village orders not counted; 0 once over."""
        return len(self.legal_actions())

    def random_legal_move(self, random: Callable[[], float]) -> Move:
        """Return a legal move chosen uniformly (village order not set), using ``random()``
        in [0, 1) as the only source of randomness, e.g. ``random.Random(seed).random``."""
        action = self.random_legal_action(random)
        return Move(action >> 6, action & 63)

    def random_legal_action(self, random: Callable[[], float]) -> int:
        """:meth:`random_legal_move` as an int action ``src * 64 + dst``, for playouts."""
        assert self._end is None, "the game is over"
        alive, count = self._alive, self._count
        edge_src, edge_dst = self.board.edges
        n = len(edge_src)
        # Rejection sampling over the board's directed edges (each legal move is one edge,
        # so an accepted edge is uniform over legal moves); after a few misses, choose from
        # the full list instead. A mixture of two uniform choices is uniform.
        for _ in range(8):
            i = int(random() * n)
            src = edge_src[i]
            dst = edge_dst[i]
            if alive[src] and alive[dst]:
                c = count[src]
                if c < BIG_GROUP or count[dst] >= c:
                    return src << 6 | dst
        actions = self.legal_actions()
        return actions[int(random() * len(actions))]

    def playout(self, random: Callable[[], float]) -> None:
        """Play uniformly random legal moves, with uniformly random village orders, to the
        end of the game (the random mover's rollout, for benchmarks and search bots).

        Forgets the undo stack (like ``push(move, undo=False)``).
        """
        if self._end is not None:
            return
        alive = self._alive
        # Every directed edge between alive territories; an edge whose end left play is
        # dropped when drawn (territories never come back into play). Drawing from the pool
        # until a legal move comes up is uniform over legal moves: each is in it once.
        if self._nalive == len(alive):
            pool = list(self.board.edge_actions)
        else:  # the same edges in the same order; the sources out of play skipped at once
            from_ = self.board.edge_actions_from
            pool = [a for src, on in enumerate(alive) if on for a in from_[src] if alive[a & 63]]
        if self._stack:
            self._stack.clear()
        if not self._owned:
            self._own()
        alive, count, apply = self._alive, self._count, self._apply
        while self._end is None:
            while True:
                i = int(random() * len(pool))
                action = pool[i]
                src = action >> 6
                dst = action & 63
                if alive[src] and alive[dst]:
                    c = count[src]
                    if c < BIG_GROUP or count[dst] >= c:
                        break
                else:
                    pool[i] = pool[-1]
                    pool.pop()
            apply(src, dst, None, None, False, random)

    def is_legal(self, move: Move) -> bool:
        """True if ``move`` (including its village order, if any) may be played now."""
        try:
            self._check(move)
        except IllegalMoveError:
            return False
        return True

    def founds(self, move: Move) -> tuple[int, ...]:
        """Territories that would become villages if ``move`` were played (R10), ascending.

        With two or more, the mover chooses their order (R11); see :meth:`village_orders`.
        """
        src, alive, degree = move.src, self._alive, self._degree
        return tuple(u for u in self._nbr_ids[src] if alive[u] and degree[u] == 1)

    def village_orders(self, move: Move) -> list[tuple[int, ...] | None]:
        """Every founding order the mover may choose for ``move`` (R11): all permutations
        of :meth:`founds` when it founds two or more villages, else ``[None]``."""
        founded = self.founds(move)
        if len(founded) < 2:
            return [None]
        return list(permutations(founded))

    # ---------------------------------------------------------- making moves

    def play(self, move: Move) -> list[ev.Event]:
        """Check ``move`` and apply it; return what happened as events.

        Raises :class:`IllegalMoveError` saying why, leaving the state unchanged.
        """
        self._check(move)
        out: list[ev.Event] = []
        self._apply(move.src, move.dst, move.order, out)
        return out

    def replay_move(self, move: Move, *, undo: bool = True) -> None:
        """Check ``move`` and apply it, as :meth:`play` does, without building its events
        (replaying a record). Raises :class:`IllegalMoveError` saying why, leaving the state
        unchanged; ``undo=False`` forgets the undo stack (nothing will be taken back)."""
        self._check(move)
        self._apply(move.src, move.dst, move.order, None, undo)

    def push(self, move: Move, *, undo: bool = True) -> None:
        """Apply ``move`` without checking it (for search). An illegal move corrupts the
        state; use :meth:`play` for input from people.

        ``undo=False`` is faster for playouts that never go back: it forgets the undo stack.
        """
        self._apply(move.src, move.dst, move.order, None, undo)

    def push_action(
        self, action: int, order: Sequence[int] | None = None, *, undo: bool = True
    ) -> None:
        """:meth:`push` for an int action ``src * 64 + dst`` (see :meth:`legal_actions`)."""
        self._apply(action >> 6, action & 63, order, None, undo)

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if not self._stack:
            raise IndexError("pop from a game with no moves")
        (
            self._pack,
            self._count,
            self._alive,
            self._degree,
            self._nalive,
            self._chips,
            self._points,
            self._taken,
            self._end,
            nvillages,
        ) = self._stack.pop()
        self._owned = False  # those lists may be in a copy's undo stack too
        del self._villages[nvillages:]
        return Move(*self._history.pop())

    def copy(self, *, stack: bool = True) -> GameState:
        """Return an independent copy; ``stack=False`` drops the undo stack (search workers)."""
        new = object.__new__(GameState)
        new.board = self.board
        new.chart = self.chart
        new.players = self.players
        new.initial_huts = self.initial_huts
        new._clans = self._clans
        new._nbr_ids = self._nbr_ids
        new._prior = self._prior
        new._terrain = self._terrain
        new._pack = self._pack[:]
        new._count = self._count[:]
        new._alive = self._alive[:]
        new._degree = self._degree[:]
        new._nalive = self._nalive
        new._villages = self._villages[:]
        new._taken = self._taken
        new._chips = self._chips[:]
        new._points = self._points[:]
        new._end = self._end
        new._history = self._history[:]
        new._stack = self._stack[:] if stack else []
        new._owned = True
        return new

    clone = copy

    def _check(self, move: Move) -> None:
        if self._end is not None:
            raise IllegalMoveError("the game is over")
        src, dst, n = move.src, move.dst, len(self._count)
        for t in (src, dst):
            if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < n:
                raise IllegalMoveError(f"there is no territory {t!r}")
        if not self._count[src]:
            raise IllegalMoveError(f"territory {src} is empty")
        if not self._alive[src]:
            raise IllegalMoveError(f"territory {src} is a village; its huts cannot move (R13)")
        if dst not in self._nbr_ids[src]:
            raise IllegalMoveError(f"territory {dst} is not a neighbour of {src}")
        if not self._count[dst]:
            raise IllegalMoveError(f"territory {dst} is empty; huts only move into non-empty ones")
        if not self._alive[dst]:
            raise IllegalMoveError(f"territory {dst} is a village; nothing moves into it (R13)")
        if not self.legal_mask(src) >> dst & 1:
            raise IllegalMoveError(
                f"territory {src} holds {self._count[src]} huts; a group of {BIG_GROUP} or more "
                f"only moves into a neighbouring group at least as large "
                f"(territory {dst} holds {self._count[dst]}) (R9)"
            )
        if move.order is not None:
            founded = self.founds(move)
            order = move.order
            if (
                not isinstance(order, tuple | list)
                or not all(isinstance(t, int) and not isinstance(t, bool) for t in order)
                or sorted(order) != list(founded)
            ):
                shown = list(order) if isinstance(order, tuple | list) else repr(order)
                raise IllegalMoveError(
                    f"village order {shown} must list the villages this move founds, "
                    f"each once: {list(founded)}"
                )

    def _own(self) -> None:
        """Make the mutable tables our own copies before changing them in place (they may
        be held by an undo snapshot, ours or a copy's)."""
        self._pack = self._pack[:]
        self._count = self._count[:]
        self._alive = self._alive[:]
        self._degree = self._degree[:]
        self._chips = self._chips[:]
        self._points = self._points[:]
        self._owned = True

    def _apply(
        self,
        src: int,
        dst: int,
        order: Sequence[int] | None,
        out: list[ev.Event] | None,
        undo: bool = True,
        shuffle: Callable[[], float] | None = None,
    ) -> None:
        """Apply a move. ``shuffle``, given with no ``order``, draws the village order
        uniformly at random (Fisher-Yates) from that source (the random mover's choice)."""
        if undo:
            # Snapshot the current lists themselves; from here on we write to copies.
            self._stack.append((
                self._pack, self._count, self._alive, self._degree, self._nalive, self._chips,
                self._points, self._taken, self._end, len(self._villages),
            ))  # fmt: skip
            self._owned = False
            self._own()
        else:
            if self._stack:
                self._stack.clear()  # older snapshots no longer line up with the history
            if not self._owned:
                self._own()
        pack, count, alive, degree = self._pack, self._count, self._alive, self._degree
        player = len(self._history) % len(self._chips)
        moved = count[src]
        total = count[dst] + moved
        pack[dst] += pack[src]  # R8: all huts of src, one addition thanks to the packing
        pack[src] = 0
        count[dst] = total
        count[src] = 0
        alive[src] = 0
        nalive = self._nalive - 1
        if out is not None:
            out.append(ev.Moved(player, src, dst, moved, total))
        # R10: the target and the source's other neighbours are cut off when src was their
        # last alive neighbour. (A cut-off territory has no alive neighbour, so founding it
        # changes no other territory's degree.)
        found = []
        for u in self._nbr_ids[src]:
            if alive[u]:
                d = degree[u] - 1
                degree[u] = d
                if not d:
                    found.append(u)
        if found:
            for v in found:
                alive[v] = 0
            nalive -= len(found)
            if len(found) < 2:
                order = found
            elif order is None:
                if shuffle is not None:
                    for i in range(len(found) - 1, 0, -1):
                        j = int(shuffle() * (i + 1))
                        found[i], found[j] = found[j], found[i]
                    order = tuple(found)
                else:
                    order = found
            total_chips = len(self.chart.chip_epoch) - 1
            for v in order:  # R11: in the mover's order, each takes the next chip
                if self._taken == total_chips:
                    if out is not None:
                        out.append(ev.VillageUnscored(v))  # R18
                    continue
                self._found_village(v, player, out)
            if self._taken == total_chips:
                self._end = END_TWELFTH_VILLAGE  # R18
            self._history.append((src, dst, tuple(order) if len(found) > 1 else None))
        else:
            self._history.append((src, dst, None))
        self._nalive = nalive
        if self._end is None and not nalive:
            self._end = END_NO_MOVES  # R19 (see the module docstring)
        if out is not None and self._end is not None:
            out.append(ev.GameOver(self._end, self.clans, self.scores(), self.winners()))

    def _found_village(self, v: int, player: int, out: list[ev.Event] | None) -> None:
        """Found village ``v`` for ``player``: chip, strife, scoring (R11, R12, R14)."""
        chart = self.chart
        self._taken = chip = self._taken + 1
        epoch = chart.chip_epoch[chip]
        self._chips[player] += 1  # R12.1
        p = self._pack[v]
        n = self._count[v]
        removed: list[str] = []
        # R12.2: strife when all five clans are present (every 4-bit field non-zero).
        if (p | p >> 1 | p >> 2 | p >> 3) & _ALL_CLANS_BITS == _ALL_CLANS_BITS:
            for c in range(NUM_CLANS):
                if (p >> (4 * c)) & 15 == 1:
                    p -= 1 << (4 * c)
                    n -= 1
                    removed.append(CLANS[c])
        huts = (p & 15, p >> 4 & 15, p >> 8 & 15, p >> 12 & 15, p >> 16 & 15)
        effect = chart.effect[epoch][self._terrain[v]]
        if effect == HOSTILE:  # R14: worth nothing, huts leave the board
            value = 0
            p = n = 0
        else:
            value = n + chart.bonus[epoch] if effect == FAVOURABLE else n
            points = self._points
            for c in range(NUM_CLANS):
                if huts[c]:
                    points[c] += value  # R12.3: the full value, however many huts
        self._pack[v] = p
        self._count[v] = n
        self._villages.append((v, chip, epoch, player, huts, value, effect, tuple(removed)))
        if out is not None:
            out.append(ev.VillageFounded(v, chip, epoch, player))
            if removed:
                out.append(ev.Strife(v, tuple(removed)))
            scored = () if effect == HOSTILE else tuple(CLANS[c] for c in range(5) if huts[c])
            out.append(ev.VillageScored(v, value, scored, _EFFECT_NAMES[effect]))
            if chip < len(chart.chip_epoch) - 1 and chart.chip_epoch[chip + 1] != epoch:
                out.append(ev.EpochChanged(chart.chip_epoch[chip + 1]))  # R16

    def check_invariants(self) -> None:
        """Assert the internal tables agree with each other (for tests)."""
        count, pack, alive, nbr_ids = self._count, self._pack, self._alive, self._nbr_ids
        assert all(count[t] == sum(unpack_huts(pack[t])) for t in range(len(count)))
        assert self._nalive == sum(alive)
        for t, a in enumerate(alive):
            assert self._degree[t] == sum(alive[u] for u in nbr_ids[t]) or not a, t
            assert not a or (count[t] and self._degree[t]), t  # alive: huts, alive neighbour
        for v in self._villages:
            assert not alive[v[0]] and not any(alive[u] for u in nbr_ids[v[0]]), v

    def huts_removed(self) -> int:
        """Huts that left the board so far: strife (R12.2) and hostile villages (R14)."""
        return sum(len(v[7]) + (sum(v[4]) if v[6] == HOSTILE else 0) for v in self._villages)
