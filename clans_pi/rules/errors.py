"""Errors for people: each says what was wrong with which input, and where.

All are ``ValueError`` subclasses so callers that only know ``ValueError`` still catch them.
Programmer errors (calling the engine with nonsense from code) are asserts instead.
"""


class ClansError(ValueError):
    """Base of every error the rules package raises about bad input."""


class BoardError(ClansError):
    """A board description is malformed or breaks R1/R2 (names the territory and problem)."""


class ChartError(ClansError):
    """An epoch chart is malformed or breaks R4/R15."""


class IllegalMoveError(ClansError):
    """A move that the rules (R8-R11) do not allow in the current position."""


class RecordError(ClansError):
    """A game record or saved game that cannot be read or replayed."""


class SetupError(ClansError):
    """A starting position that breaks R3, R5 or R6 (huts, clans or players)."""
