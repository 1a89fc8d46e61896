"""What happened in a move, reported so a UI can animate it without re-deriving the rules.

Every event is public: none names which player holds which clan, except :class:`GameOver`,
which is the reveal of R20.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Moved:
    """``player`` moved ``huts`` huts from ``src`` into ``dst``, which now holds ``total`` (R8)."""

    player: int
    src: int
    dst: int
    huts: int
    total: int


@dataclass(frozen=True, slots=True)
class VillageFounded:
    """``territory`` became a village; ``founder`` took chip ``chip`` of ``epoch`` (R10-R12)."""

    territory: int
    chip: int
    epoch: int
    founder: int


@dataclass(frozen=True, slots=True)
class Strife:
    """All five clans met in ``territory``: each clan in ``removed`` lost its only hut (R12.2)."""

    territory: int
    removed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VillageScored:
    """Village ``territory`` scored ``value`` for each clan in ``clans`` (R12.3, R14).

    ``effect`` is "favourable", "neutral" or "hostile"; on hostile terrain ``clans`` is empty
    and the village's huts left the board.
    """

    territory: int
    value: int
    clans: tuple[str, ...]
    effect: str


@dataclass(frozen=True, slots=True)
class VillageUnscored:
    """``territory`` was cut off by the move that took the last chip: not scored (R18)."""

    territory: int


@dataclass(frozen=True, slots=True)
class EpochChanged:
    """The last chip of an epoch was taken: the next village belongs to ``epoch`` (R16)."""

    epoch: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended (R18/R19); the clans are revealed (R20) and the winners known (R21).

    ``reason`` is "twelfth_village" or "no_moves".
    """

    reason: str
    clans: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = Moved | VillageFounded | Strife | VillageScored | VillageUnscored | EpochChanged | GameOver
