"""A founded village (R10-R14), and the packing of per-clan hut counts into one int."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .constants import CLANS, NUM_CLANS
from .epochs import HOSTILE


def pack_huts(per_clan: Sequence[int]) -> int:
    """Pack per-clan hut counts (in CLANS order) into one int, 4 bits a clan."""
    return sum(n << (4 * c) for c, n in enumerate(per_clan))


def unpack_huts(packed: int) -> tuple[int, ...]:
    """Return the per-clan hut counts (in CLANS order) of a packed int."""
    return tuple((packed >> (4 * c)) & 15 for c in range(NUM_CLANS))


class Village(NamedTuple):
    """A founded village (R10-R14). ``huts`` counts per clan (CLANS order) after strife,
    before any hostile removal; ``value`` is what each clan present scored (0 on hostile
    terrain); ``effect`` is the terrain's FAVOURABLE/NEUTRAL/HOSTILE in the chip's epoch."""

    territory: int
    chip: int
    epoch: int
    founder: int
    huts: tuple[int, ...]
    value: int
    effect: int
    lost: tuple[str, ...] = ()  # clans that lost their only hut in strife (R12.2)

    def huts_by_clan(self) -> dict[str, int]:
        """Return ``{clan: huts}`` for the clans with at least one hut here after strife."""
        return {CLANS[c]: n for c, n in enumerate(self.huts) if n}

    def to_dict(self) -> dict[str, Any]:
        """The village as ``clans-pi replay`` prints it (public information)."""
        return {
            "territory": self.territory,
            "chip": self.chip,
            "epoch": self.epoch,
            "founder": self.founder,
            "huts": self.huts_by_clan(),
            "value": self.value,
        }

    @property
    def removed(self) -> bool:
        """True when the huts left the board because the terrain was hostile (R14)."""
        return self.effect == HOSTILE
