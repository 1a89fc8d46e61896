"""The rules of Clans (docs/rules.md, R1-R22): pure Python, no I/O beyond its own data.

Everything a program needs is here: deal a game, list its legal moves, play one, see what a
player may know, take it back, keep it as a record.

    >>> import random
    >>> from clans_pi.rules import Move, deal, load_default_board, replay, to_record
    >>> board = load_default_board()
    >>> game = deal(board, ["Ann", "Bob", "Cid"], random.Random(7))
    >>> game.players  # in turn order: Cid was drawn to begin (R7)
    ('Cid', 'Ann', 'Bob')
    >>> moves = game.legal_moves()
    >>> len(moves), moves[0]
    (274, Move(src=0, dst=1, order=None))
    >>> game.legal_targets(0)  # where territory 0's huts may go (R8)
    (1, 2, 3)
    >>> game.play(Move(0, 1))  # what happened, for a screen to show
    [Moved(player=0, src=0, dst=1, huts=1, total=2)]
    >>> game.current_player, game.ply
    (1, 1)

A player's view holds their own clan and nobody else's until the end (R22); the public view,
for the shared screen, holds none:

    >>> game.observation(0).own_clan, game.observation(None).own_clan
    ('yellow', None)

A record replays to the same game, checking every move; undo takes the last move back:

    >>> replay(to_record(game), board, game.chart).ply
    1
    >>> game.pop()
    Move(src=0, dst=1, order=None)
    >>> game.ply
    0

A move the rules forbid is refused with one line saying why, and changes nothing:

    >>> game.play(Move(0, 30))
    Traceback (most recent call last):
    ...
    clans_pi.rules.errors.IllegalMoveError: territory 30 is not a neighbour of 0
    >>> game.ply
    0

:class:`GameState` holds every clan: a person sees the game only through an
:class:`Observation` (the app through :class:`clans_pi.session.Session`).
"""

from __future__ import annotations

from .board import BOARD_FORMAT, Board, Territory, load_default_board
from .constants import CLANS, MAX_PLAYERS, MIN_PLAYERS, TERRAINS
from .epochs import CHART_FORMAT, Epoch, EpochChart, load_default_chart
from .errors import (
    BoardError,
    ChartError,
    ClansError,
    IllegalMoveError,
    RecordError,
    SetupError,
)
from .events import (
    EpochChanged,
    Event,
    GameOver,
    Moved,
    Strife,
    VillageFounded,
    VillageScored,
    VillageUnscored,
)
from .moves import Move
from .observation import Observation
from .record import RECORD_FORMAT, STATE_FORMAT, from_json, replay, result, to_json, to_record
from .setup import deal
from .state import END_NO_MOVES, END_TWELFTH_VILLAGE, GameState
from .village import Village

__all__ = [
    "BOARD_FORMAT",
    "CHART_FORMAT",
    "CLANS",
    "END_NO_MOVES",
    "END_TWELFTH_VILLAGE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RECORD_FORMAT",
    "STATE_FORMAT",
    "TERRAINS",
    "Board",
    "BoardError",
    "ChartError",
    "ClansError",
    "Epoch",
    "EpochChanged",
    "EpochChart",
    "Event",
    "GameOver",
    "GameState",
    "IllegalMoveError",
    "Move",
    "Moved",
    "Observation",
    "RecordError",
    "SetupError",
    "Strife",
    "Territory",
    "Village",
    "VillageFounded",
    "VillageScored",
    "VillageUnscored",
    "deal",
    "from_json",
    "load_default_board",
    "load_default_chart",
    "replay",
    "result",
    "to_json",
    "to_record",
]
