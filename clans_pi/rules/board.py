"""The board: territories, terrains, regions and neighbours (R1, R2), with bitset tables.

A :class:`Board` is built from a plain dict (the ``clans-board/1`` JSON format) and checks
it thoroughly; a bad board raises :class:`BoardError` naming the territory and the problem.
Neighbour masks are ints used as bitsets (bit ``i`` = territory ``i``), built once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .constants import NUM_REGIONS, NUM_TERRITORIES, REGION_SIZE, TERRAIN_INDEX, TERRAINS
from .errors import BoardError

BOARD_FORMAT = "clans-board/1"

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Territory:
    """One territory: its id, terrain, region, neighbours and (optional) drawing geometry."""

    id: int
    terrain: str
    region: int
    neighbors: tuple[int, ...]
    polygon: tuple[Point, ...] = ()
    anchor: Point | None = None


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Board:
    """A validated Clans board with precomputed bitset tables.

    >>> board = load_default_board()
    >>> len(board.territories), len(board.regions)
    (60, 12)
    """

    __slots__ = (
        "aspect",
        "degrees",
        "edge_actions",
        "edge_actions_from",
        "edges",
        "id",
        "lakes",
        "name",
        "neighbor_ids",
        "neighbor_mask",
        "regions",
        "rivers",
        "terrain_index",
        "territories",
    )

    def __init__(
        self,
        territories: Sequence[Territory],
        *,
        id: str = "custom",
        name: str = "",
        aspect: float = 1.0,
        lakes: Sequence[Sequence[Point]] = (),
        rivers: Sequence[Sequence[Point]] = (),
    ) -> None:
        self.id = id
        self.name = name or id
        self.aspect = aspect
        self.territories: tuple[Territory, ...] = tuple(sorted(territories, key=lambda t: t.id))
        self.lakes: tuple[tuple[Point, ...], ...] = tuple(tuple(p) for p in lakes)
        self.rivers: tuple[tuple[Point, ...], ...] = tuple(tuple(p) for p in rivers)
        _check_structure(self.territories)
        self.neighbor_mask: tuple[int, ...] = tuple(
            sum(1 << n for n in t.neighbors) for t in self.territories
        )
        self.neighbor_ids: tuple[tuple[int, ...], ...] = tuple(
            t.neighbors for t in self.territories
        )
        self.degrees: tuple[int, ...] = tuple(len(n) for n in self.neighbor_ids)
        # Every directed edge once, as parallel (sources, targets) tuples.
        self.edges: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(t.id for t in self.territories for _ in t.neighbors),
            tuple(n for t in self.territories for n in t.neighbors),
        )
        self.edge_actions: tuple[int, ...] = tuple(
            s << 6 | d for s, d in zip(*self.edges, strict=True)
        )
        #: ``edge_actions`` by source: those from territory ``t``, in the same order.
        self.edge_actions_from: tuple[tuple[int, ...], ...] = tuple(
            tuple(t.id << 6 | n for n in t.neighbors) for t in self.territories
        )
        self.terrain_index: tuple[int, ...] = tuple(
            TERRAIN_INDEX[t.terrain] for t in self.territories
        )
        regions: dict[int, list[int]] = {}
        for t in self.territories:
            regions.setdefault(t.region, []).append(t.id)
        self.regions: tuple[tuple[int, ...], ...] = tuple(
            tuple(regions[r]) for r in sorted(regions)
        )

    def __len__(self) -> int:
        return len(self.territories)

    def __repr__(self) -> str:
        return f"<Board {self.id!r}: {len(self.territories)} territories>"

    def neighbors(self, territory: int) -> tuple[int, ...]:
        """Return the neighbours of ``territory`` (R2), ascending."""
        return self.territories[territory].neighbors

    def terrain(self, territory: int) -> str:
        """Return the terrain name of ``territory``."""
        return self.territories[territory].terrain

    @classmethod
    def from_dict(cls, data: Any) -> Board:
        """Build a board from the ``clans-board/1`` dict, or raise :class:`BoardError`."""
        if not isinstance(data, Mapping):
            raise BoardError("board: expected a JSON object at the top level")
        fmt = data.get("format", BOARD_FORMAT)
        if fmt != BOARD_FORMAT:
            raise BoardError(f"board: unknown format {fmt!r} (expected {BOARD_FORMAT!r})")
        raw = data.get("territories")
        if not isinstance(raw, list):
            raise BoardError("board: 'territories' must be a list")
        territories = [_parse_territory(i, t) for i, t in enumerate(raw)]
        aspect = data.get("aspect", 1.0)
        if not _is_number(aspect) or aspect <= 0:
            raise BoardError(f"board: 'aspect' must be a positive number, not {aspect!r}")
        lakes = [
            _parse_points(
                lake.get("polygon") if isinstance(lake, Mapping) else None, f"lake {i}", minimum=3
            )
            for i, lake in enumerate(_list(data, "lakes"))
        ]
        rivers = [
            _parse_points(
                river.get("points") if isinstance(river, Mapping) else None, f"river {i}", minimum=2
            )
            for i, river in enumerate(_list(data, "rivers"))
        ]
        board_id = data.get("id", "custom")
        if not isinstance(board_id, str) or not board_id:
            raise BoardError("board: 'id' must be a non-empty string")
        name = data.get("name", board_id)
        return cls(
            territories,
            id=board_id,
            name=name if isinstance(name, str) else board_id,
            aspect=float(aspect),
            lakes=lakes,
            rivers=rivers,
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the board as a ``clans-board/1`` dict (the inverse of :meth:`from_dict`)."""
        territories: list[dict[str, Any]] = []
        for t in self.territories:
            entry: dict[str, Any] = {
                "id": t.id,
                "terrain": t.terrain,
                "region": t.region,
                "neighbors": list(t.neighbors),
            }
            if t.polygon:
                entry["polygon"] = [list(p) for p in t.polygon]
            if t.anchor is not None:
                entry["anchor"] = list(t.anchor)
            territories.append(entry)
        return {
            "format": BOARD_FORMAT,
            "id": self.id,
            "name": self.name,
            "aspect": self.aspect,
            "territories": territories,
            "lakes": [{"polygon": [list(p) for p in lake]} for lake in self.lakes],
            "rivers": [{"points": [list(p) for p in river]} for river in self.rivers],
        }


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise BoardError(f"board: '{key}' must be a list")
    return value


def _is_number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _parse_points(raw: object, where: str, *, minimum: int) -> tuple[Point, ...]:
    if not isinstance(raw, list) or len(raw) < minimum:
        raise BoardError(f"{where}: expected a list of at least {minimum} [x, y] points")
    points: list[Point] = []
    for p in raw:
        if not (isinstance(p, list | tuple) and len(p) == 2 and all(_is_number(c) for c in p)):
            raise BoardError(f"{where}: {p!r} is not an [x, y] point")
        points.append((float(p[0]), float(p[1])))
    return tuple(points)


def _parse_territory(index: int, raw: object) -> Territory:
    if not isinstance(raw, Mapping):
        raise BoardError(f"territories[{index}]: expected an object")
    tid = raw.get("id")
    if not isinstance(tid, int) or isinstance(tid, bool):
        raise BoardError(f"territories[{index}]: 'id' must be an integer, not {tid!r}")
    where = f"territory {tid}"
    terrain = raw.get("terrain")
    if not isinstance(terrain, str) or terrain not in TERRAIN_INDEX:
        raise BoardError(
            f"{where}: unknown terrain {terrain!r} (expected one of {', '.join(TERRAINS)})"
        )
    region = raw.get("region")
    if not isinstance(region, int) or isinstance(region, bool):
        raise BoardError(f"{where}: 'region' must be an integer, not {region!r}")
    neighbors = raw.get("neighbors")
    if not isinstance(neighbors, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in neighbors
    ):
        raise BoardError(f"{where}: 'neighbors' must be a list of territory ids")
    if len(set(neighbors)) != len(neighbors):
        raise BoardError(f"{where}: a neighbour is listed twice in {neighbors}")
    polygon: tuple[Point, ...] = ()
    if "polygon" in raw:
        polygon = _parse_points(raw["polygon"], where + " polygon", minimum=3)
    anchor: Point | None = None
    if "anchor" in raw:
        anchor = _parse_points([raw["anchor"]], where + " anchor", minimum=1)[0]
    return Territory(tid, terrain, region, tuple(sorted(neighbors)), polygon, anchor)


def _check_structure(territories: Sequence[Territory]) -> None:
    """Check ids, neighbour symmetry and regions (R1, R2, R5); raise BoardError on a fault."""
    ids = [t.id for t in territories]
    if len(territories) != NUM_TERRITORIES:
        raise BoardError(
            f"board has {len(territories)} territories; a Clans board has {NUM_TERRITORIES} (R1)"
        )
    seen: set[int] = set()
    for tid in ids:
        if tid in seen:
            raise BoardError(f"territory {tid}: id used twice")
        if not 0 <= tid < NUM_TERRITORIES:
            raise BoardError(f"territory {tid}: id must be 0..{NUM_TERRITORIES - 1}")
        seen.add(tid)
    by_id = {t.id: t for t in territories}
    for t in territories:
        if not t.neighbors:
            raise BoardError(f"territory {t.id}: has no neighbours")
        for n in t.neighbors:
            if n == t.id:
                raise BoardError(f"territory {t.id}: lists itself as a neighbour")
            if n not in by_id:
                raise BoardError(f"territory {t.id}: unknown neighbour {n}")
            if t.id not in by_id[n].neighbors:
                raise BoardError(
                    f"territory {t.id}: lists {n} as a neighbour but territory {n} "
                    f"does not list {t.id} (asymmetric neighbour)"
                )
    regions: dict[int, list[int]] = {}
    for t in territories:
        regions.setdefault(t.region, []).append(t.id)
    for region, members in sorted(regions.items()):
        if len(members) != REGION_SIZE:
            raise BoardError(
                f"region {region} has {len(members)} territories "
                f"({', '.join(map(str, members))}); each region needs {REGION_SIZE} (R1, R5)"
            )
    if len(regions) != NUM_REGIONS:
        raise BoardError(f"board has {len(regions)} regions; a Clans board has {NUM_REGIONS} (R1)")


def load_default_board() -> Board:
    """Return the board shipped with the package (an original map, see scripts/make/board.py)."""
    return Board.from_dict(_read_data("board.json"))


def _read_data(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath("data", name).read_text("utf-8"))
