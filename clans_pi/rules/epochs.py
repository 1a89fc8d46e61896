"""The epoch chart (R4, R14-R17): chips per epoch, bonus, favourable and hostile terrains.

The chart is data (``data/epochs.json``) so a variant can be played; this module checks it
and turns it into lookup tables indexed by chip number and terrain index.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .board import _read_data
from .constants import NUM_CHIPS, TERRAIN_INDEX, TERRAINS
from .errors import ChartError

CHART_FORMAT = "clans-epochs/1"

FAVOURABLE = 1
NEUTRAL = 0
HOSTILE = -1


@dataclass(frozen=True, slots=True)
class Epoch:
    """One row of the chart (R15)."""

    number: int
    name: str
    chips: int
    bonus: int
    favourable: frozenset[str]
    hostile: frozenset[str]

    def effect(self, terrain: str) -> int:
        """Return FAVOURABLE, NEUTRAL or HOSTILE for ``terrain`` in this epoch (R14)."""
        if terrain in self.favourable:
            return FAVOURABLE
        return HOSTILE if terrain in self.hostile else NEUTRAL


class EpochChart:
    """A validated chart with per-chip tables.

    ``chip_epoch[k]`` is the epoch number of chip ``k`` (1-based; index 0 unused).
    ``effect[e][terrain_index]`` is FAVOURABLE/NEUTRAL/HOSTILE and ``bonus[e]`` the bonus.
    """

    __slots__ = ("bonus", "chip_epoch", "effect", "epochs", "id")

    def __init__(self, epochs: list[Epoch], *, id: str = "custom") -> None:
        self.id = id
        self.epochs = tuple(epochs)
        self.chip_epoch: tuple[int, ...] = (0, *(e.number for e in epochs for _ in range(e.chips)))
        self.bonus: tuple[int, ...] = (0, *(e.bonus for e in epochs))
        self.effect: tuple[tuple[int, ...], ...] = (
            (),
            *(tuple(e.effect(t) for t in TERRAINS) for e in epochs),
        )

    @property
    def total_chips(self) -> int:
        return len(self.chip_epoch) - 1

    def epoch(self, number: int) -> Epoch:
        """Return epoch ``number`` (1-based)."""
        return self.epochs[number - 1]

    def __repr__(self) -> str:
        return f"<EpochChart {self.id!r}: {[e.chips for e in self.epochs]}>"

    @classmethod
    def from_dict(cls, data: Any) -> EpochChart:
        """Build a chart from the ``clans-epochs/1`` dict, or raise :class:`ChartError`."""
        if not isinstance(data, Mapping):
            raise ChartError("epoch chart: expected a JSON object at the top level")
        if data.get("format", CHART_FORMAT) != CHART_FORMAT:
            raise ChartError(f"epoch chart: unknown format {data.get('format')!r}")
        raw = data.get("epochs")
        if not isinstance(raw, list) or not raw:
            raise ChartError("epoch chart: 'epochs' must be a non-empty list")
        epochs: list[Epoch] = []
        for i, e in enumerate(raw, start=1):
            where = f"epoch chart: epoch {i}"
            if not isinstance(e, Mapping):
                raise ChartError(f"{where}: expected an object")
            if e.get("number", i) != i:
                raise ChartError(f"{where}: 'number' is {e.get('number')!r}, expected {i}")
            chips, bonus = e.get("chips"), e.get("bonus")
            if not isinstance(chips, int) or isinstance(chips, bool) or chips < 1:
                raise ChartError(f"{where}: 'chips' must be a positive integer, not {chips!r}")
            if not isinstance(bonus, int) or isinstance(bonus, bool) or bonus < 0:
                raise ChartError(f"{where}: 'bonus' must be a whole number >= 0, not {bonus!r}")
            sets = []
            for key in ("favourable", "hostile"):
                terrains = e.get(key, [])
                if not isinstance(terrains, list):
                    raise ChartError(f"{where}: '{key}' must be a list of terrains")
                for t in terrains:
                    if not isinstance(t, str) or t not in TERRAIN_INDEX:
                        raise ChartError(f"{where}: unknown terrain {t!r} in '{key}'")
                sets.append(frozenset(terrains))
            if sets[0] & sets[1]:
                raise ChartError(
                    f"{where}: {', '.join(sorted(sets[0] & sets[1]))} "
                    "is both favourable and hostile"
                )
            name = e.get("name", str(i))
            epochs.append(Epoch(i, str(name), chips, bonus, sets[0], sets[1]))
        total = sum(e.chips for e in epochs)
        if total != NUM_CHIPS:
            raise ChartError(f"epoch chart: {total} chips in all; the game has {NUM_CHIPS} (R4)")
        chart_id = data.get("id", "custom")
        return cls(epochs, id=str(chart_id))

    def to_dict(self) -> dict[str, Any]:
        """Return the chart as a ``clans-epochs/1`` dict."""
        return {
            "format": CHART_FORMAT,
            "id": self.id,
            "epochs": [
                {
                    "number": e.number,
                    "name": e.name,
                    "chips": e.chips,
                    "bonus": e.bonus,
                    "favourable": [t for t in TERRAINS if t in e.favourable],
                    "hostile": [t for t in TERRAINS if t in e.hostile],
                }
                for e in self.epochs
            ],
        }


@cache
def load_default_chart() -> EpochChart:
    """Return the standard chart of RULES.md R15 (read once; the chart is immutable)."""
    return EpochChart.from_dict(_read_data("epochs.json"))
