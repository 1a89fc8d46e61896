"""Past games at the table: the finished games' index (read from their records), the
family's scoreboard, and a finished game replayed move by move. No pygame here: the screen,
``clans-pi history`` and the tests all use the same code."""

from .index import Damaged, History, Merged, RecordGone
from .past_game import PastGame, PastPlayer, read_past_game
from .replay import GameReplay
from .scoreboard import RECENT_DAYS, Standing, recent_since, scoreboard

__all__ = [
    "RECENT_DAYS",
    "Damaged",
    "GameReplay",
    "History",
    "Merged",
    "PastGame",
    "PastPlayer",
    "RecordGone",
    "Standing",
    "read_past_game",
    "recent_since",
    "scoreboard",
]
