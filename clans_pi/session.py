"""A game at the table: the seats, the secret state, and the views the screen may show.

The :class:`Session` is the referee. It holds the full :class:`GameState` (with every
player's clan) and hands out only views: :meth:`Session.public` for the shared screen and
:meth:`Session.private` for one seat's peek (R22). The UI, seat devices and logs go through
it, never through the state.

Seats are in table (clockwise) order as the family sat down; the engine lists players in
turn order, the first player first (R7). ``player_of`` / ``seat_of`` convert.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .i18n import N_, _
from .rules.board import Board
from .rules.constants import BIG_GROUP, MAX_PLAYERS, MIN_PLAYERS
from .rules.epochs import EpochChart
from .rules.errors import SetupError
from .rules.events import Event
from .rules.moves import Move
from .rules.observation import Observation
from .rules.record import from_json, replay, to_json, to_record
from .rules.setup import deal
from .rules.state import GameState

HUMAN = "human"
#: Computer players, weakest first: the bots' levels (clans_pi.bots.base.LEVELS).
COMPUTER_KINDS = ("easy", "normal", "hard")
SEAT_KINDS = (HUMAN, *COMPUTER_KINDS)
LEVEL_LABEL = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}


def level_label(kind: str) -> str:
    """A computer level's name in the language in use."""
    return _(LEVEL_LABEL[kind]) if kind in LEVEL_LABEL else kind.capitalize()


def kind_label(kind: str) -> str:
    """Who plays a seat, in words: "Person", "Computer: Hard", ..."""
    if kind == HUMAN:
        return _("Person")
    return _("Computer: {level}").format(level=level_label(kind))


@dataclass(frozen=True, slots=True)
class Seat:
    """One place at the table: a name, an avatar key and who plays it."""

    name: str
    avatar: str = ""  # "" lets the screen choose one by seat number
    kind: str = HUMAN  # one of SEAT_KINDS (a headless game's saves may hold others)

    @property
    def is_human(self) -> bool:
        """A person plays this seat; any other kind is played by the computer, which sees
        only that seat's own view (and has no peek, no device: R22)."""
        return self.kind == HUMAN


@dataclass(frozen=True, slots=True)
class SlotPreview:
    """What the ``k``-th village founded by a move would get (R11, R18): its chip, epoch
    and bonus, or ``chip`` None when no chip is left for it (not scored)."""

    chip: int | None
    epoch: int | None
    bonus: int
    favourable: tuple[str, ...]
    hostile: tuple[str, ...]


class Session:
    """A game in progress between ``seats`` (table order)."""

    def __init__(self, state: GameState, seats: Sequence[Seat], *,
                 can_undo: bool = False, undo_moves: int | None = None) -> None:
        if len(seats) != state.num_players:
            raise SetupError(f"{len(seats)} seats for a game of {state.num_players} players")
        names = [s.name for s in seats]
        if sorted(names) != sorted(state.players):
            raise SetupError("the seats' names do not match the game's players")
        self.seats: tuple[Seat, ...] = tuple(seats)
        self._state = state
        # Turn order is a rotation of table order (R7): player 0 sits at seat `first`.
        self.first_seat = names.index(state.players[0])
        for i, name in enumerate(state.players):
            if names[(self.first_seat + i) % len(names)] != name:
                raise SetupError("the game's turn order is not the seats' table order")
        wanted = (1 if can_undo else 0) if undo_moves is None else max(0, int(undo_moves))
        # How many moves one Undo takes back: 0 (none), 1, or a person's move with the
        # computers' replies after it (see :meth:`undo`).
        self._undo_moves = 0 if state.is_over else min(wanted, len(state.moves))
        self._public: Observation | None = None
        # The first-game guide's topics this game has explained (public; saved with it).
        self.guide_seen: set[str] = set()
        # The phone seats' links (clans_pi.phones.tokens, as JSON), kept with the save so the
        # same QR code works after a restart; empty when no seat is a phone.
        self.phone_links: dict[str, Any] = {}

    # ------------------------------------------------------------- creating

    @classmethod
    def new(
        cls, seats: Sequence[Seat], board: Board, chart: EpochChart, rng: random.Random
    ) -> Session:
        """Deal a new game for ``seats`` (R5-R7)."""
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise SetupError(f"{MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seats)}")
        state = deal(board, [s.name for s in seats], rng, chart)
        return cls(state, seats)

    @classmethod
    def load(cls, data: Any, board: Board, chart: EpochChart, *,
             seats: Sequence[Seat] | None = None, can_undo: bool = False,
             undo_moves: int | None = None) -> Session:
        """A session from a saved game (clans-state/1) or a record (clans-record/1).

        ``seats`` (table order) come from our own save file; without them the seats are the
        players in turn order with no avatar (the screen picks one).
        """
        if isinstance(data, dict) and str(data.get("format")).startswith("clans-state/"):
            state = from_json(data, board)
        else:
            state = replay(data, board, chart)
        if seats is None:  # turn order is a valid table order
            seats = [Seat(name, "") for name in state.players]
        return cls(state, seats, can_undo=can_undo, undo_moves=undo_moves)

    def rematch(self, rng: random.Random) -> Session:
        """A new deal for the same seats, board and chart."""
        return Session.new(self.seats, self._state.board, self._state.chart, rng)

    def to_json(self) -> dict[str, Any]:
        """The saved game (holds the secret clans: for files, never for showing)."""
        return to_json(self._state)

    def to_record(self) -> dict[str, Any]:
        """The game record (holds the secret clans: for files, never for showing)."""
        return to_record(self._state)

    # ------------------------------------------------------------- public facts

    @property
    def board(self) -> Board:
        return self._state.board

    @property
    def chart(self) -> EpochChart:
        return self._state.chart

    @property
    def num_seats(self) -> int:
        return len(self.seats)

    def player_of(self, seat: int) -> int:
        """The engine's player index (turn order) of table ``seat``."""
        return (seat - self.first_seat) % len(self.seats)

    def seat_of(self, player: int) -> int:
        """The table seat of the engine's ``player``."""
        return (player + self.first_seat) % len(self.seats)

    @property
    def current_seat(self) -> int:
        return self.seat_of(self._state.current_player)

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    def public(self) -> Observation:
        """The shared screen's view: public information only (R22). Cached per move."""
        if self._public is None:
            self._public = self._state.observation(None)
        return self._public

    def private(self, seat: int) -> Observation:
        """What ``seat`` may know: the public view plus its own clan (for a peek only)."""
        return self._state.observation(self.player_of(seat))

    # ------------------------------------------------------------- moves

    def legal_targets(self, src: int) -> tuple[int, ...]:
        """Territories the huts of ``src`` may move into now (empty if none)."""
        return tuple(m.dst for m in self.public().legal_moves if m.src == src)

    def movable(self) -> frozenset[int]:
        """Territories that have at least one legal move now."""
        return frozenset(m.src for m in self.public().legal_moves)

    def refusal(self, src: int, dst: int | None = None) -> str | None:
        """Why moving ``src`` (into ``dst``, when given) is not allowed, in a few words for
        the screen, or None when it is. Built from the public view only."""
        obs = self.public()
        if obs.end is not None:
            return _("the game is over")
        huts = sum(obs.huts[src])
        if not huts:
            return _("that territory is empty")
        if self._is_village(src):
            return _("a village cannot move")
        targets = self.legal_targets(src)
        if dst is None:
            if not targets:
                return _("{n} or more huts cannot move").format(n=BIG_GROUP)
            return None
        if dst in targets:
            return None
        if dst == src:
            return _("choose a neighbouring territory")
        if not sum(obs.huts[dst]):
            return _("that territory is empty")
        if dst not in self.board.neighbors(src):
            return _("not a neighbouring territory")
        return _("{n} or more only move onto a bigger group").format(n=BIG_GROUP)

    def _is_village(self, t: int) -> bool:
        """Non-empty with every neighbour empty (R10), from the public view."""
        huts = self.public().huts
        return any(huts[t]) and not any(any(huts[n]) for n in self.board.neighbors(t))

    def founds(self, src: int, dst: int) -> tuple[int, ...]:
        """The villages moving ``src`` into ``dst`` would found (R10), ascending."""
        return self._state.founds(Move(src, dst))

    def slot_preview(self, k: int) -> SlotPreview:
        """What the ``k``-th (0-based) village founded by the next move would get."""
        chip = self._state.chips_taken + k + 1
        chart = self.chart
        if chip > chart.total_chips:
            return SlotPreview(None, None, 0, (), ())
        epoch = chart.epoch(chart.chip_epoch[chip])
        return SlotPreview(
            chip,
            epoch.number,
            epoch.bonus,
            tuple(sorted(epoch.favourable)),
            tuple(sorted(epoch.hostile)),
        )

    def village_worth(self, src: int, dst: int, village: int, k: int) -> int:
        """What ``village`` would be worth (each clan in it scores this, R12.3) if moving
        ``src`` into ``dst`` founds it as the ``k``-th village (0-based) of the move: its
        huts after the move and after strife (R12.2), plus the epoch's bonus on favourable
        terrain, nothing on hostile terrain (R14) or without a chip (R18). From the public
        view only."""
        slot = self.slot_preview(k)
        if slot.chip is None:
            return 0
        huts = self.public().huts
        counts = list(huts[village])
        if village == dst:
            counts = [a + b for a, b in zip(huts[src], huts[dst], strict=True)]
        if all(counts):  # strife: every clan with a single hut loses it
            counts = [0 if n == 1 else n for n in counts]
        terrain = self.board.terrain(village)
        if terrain in slot.hostile:
            return 0
        return sum(counts) + (slot.bonus if terrain in slot.favourable else 0)

    def play(self, src: int, dst: int, order: Sequence[int] | None = None) -> list[Event]:
        """Play a move for the current player (checked); return the public events."""
        mover = self.seats[self.current_seat]
        events = self._state.play(Move(src, dst, None if order is None else tuple(order)))
        self._public = None
        if self._state.is_over:
            self._undo_moves = 0
        elif mover.kind == HUMAN:
            self._undo_moves = 1
        elif self._undo_moves:
            self._undo_moves += 1  # a computer's reply goes with the person's move before it
        return events

    @property
    def can_undo(self) -> bool:
        """True while Undo may take something back: until the next person moves, and not
        once the game is over (the clans are revealed then)."""
        return self._undo_moves > 0

    @property
    def undo_moves(self) -> int:
        """How many moves :meth:`undo` takes back (0: none)."""
        return self._undo_moves

    def undo(self) -> Move:
        """Take back the last move; when computers replied to a person's move, their moves
        and that person's move, so the person moves again. (Without computers this is one
        step only: the last move, until the next player has moved.) Returns the move that
        was taken back last (the person's)."""
        if not self._undo_moves:
            raise SetupError("there is no move to take back")
        for _step in range(self._undo_moves):
            move = self._state.pop()
        self._public = None
        self._undo_moves = 0
        return move
