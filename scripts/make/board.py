#!/usr/bin/env python3
"""Generate the project's original Clans board: clans_pi/rules/data/board.json (RULES.md R1, R2).

    python scripts/make/board.py            write the file
    python scripts/make/board.py --check    exit 1 if the file differs from generate()
    python scripts/make/board.py --search N try seeds SEED..SEED+N-1 and list the valid ones

Method: a pointy-top hex lattice whose vertices are jittered; an island of lattice cells is
grown along a smooth noise field; it is split into 12 compact regions of equal cell count;
lakes of 3-4 cells are carved on region borders (where three regions meet, if possible); each
region is split into 5 territories of equal cell count, split again with moved seeds while a
territory would have fewer than 3 or more than 8 neighbours. Every border between two owners
(territory, lake, sea) is a chain of lattice edges; the inner vertices of each chain are
smoothed, and every polygon is read off the same vertex positions, so a shared border is
bit-identical in both polygons. Rivers are the borders between regions. Only + - * / and sqrt
are used on floats, so every platform and Python version computes the same file.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clans_pi.rules import geometry  # noqa: E402

OUT = ROOT / "clans_pi" / "rules" / "data" / "board.json"

SEED = 127  # found with --search; generation is then a single pass
ASPECT = 1.6  # width / height; the board is built in units where the height is 1
HEX = 0.027  # hex circumradius
CELLS_PER_TERRITORY = 8
LAKE_COUNT = 9
RESPLITS = 40  # tries to split a region into territories that meet the degree bounds
LAKE_SPACING = 9  # in hex radii: lakes closer than this only if nothing farther is left
LAKE_FOURTH_CELL = 0.4  # chance that a lake has 4 cells rather than 3
REGIONS = 12
PER_REGION = 5
TERRAINS = ("forest", "mountain", "steppe", "grassland", "grassland")
JITTER = 0.3  # lattice vertex jitter, in hex radii
SMOOTH_PASSES = 2
SMOOTH_WEIGHT = 0.5
COAST_SWELL = 0.35  # large-scale coast noise (peninsulas, gulfs)
COAST_RIPPLE = 0.1  # small-scale coast noise (bays and capes)

SQ3 = math.sqrt(3.0)
SEA = -1
LAKE_BASE = 1000
# Pointy-top hexagon corners in lattice units (x: HEX*sqrt3/2, y: HEX/2), in turning order.
CORNERS = ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))

Cell = tuple[int, int]  # (column, row)
Vertex = tuple[int, int]  # lattice vertex key
XY = tuple[float, float]


class BoardError(Exception):
    """The seed produced a board that breaks a requirement."""


# --- lattice -----------------------------------------------------------------------------


class Lattice:
    """The hex cells covering the board rectangle, with their corners and adjacency."""

    def __init__(self) -> None:
        self.rows = math.ceil(1.0 / (1.5 * HEX)) + 2
        self.cols = math.ceil(ASPECT / (SQ3 * HEX)) + 2
        self.x0 = (ASPECT - SQ3 * HEX * (self.cols - 0.5)) / 2
        self.y0 = (1.0 - 1.5 * HEX * (self.rows - 1)) / 2
        self.cells: list[Cell] = [(c, r) for r in range(self.rows) for c in range(self.cols)]
        self.corners: dict[Cell, list[Vertex]] = {}
        edge_cells: dict[tuple[Vertex, Vertex], list[Cell]] = {}
        for cell in self.cells:
            c, r = cell
            kx, ky = 2 * c + (r & 1), 3 * r
            vs = [(kx + dx, ky + dy) for dx, dy in CORNERS]
            self.corners[cell] = vs
            for i in range(6):
                a, b = vs[i], vs[(i + 1) % 6]
                edge_cells.setdefault((min(a, b), max(a, b)), []).append(cell)
        self.edge_cells = edge_cells
        self.adj: dict[Cell, list[Cell]] = {cell: [] for cell in self.cells}
        for pair in edge_cells.values():
            if len(pair) == 2:
                self.adj[pair[0]].append(pair[1])
                self.adj[pair[1]].append(pair[0])
        for cell in self.cells:
            self.adj[cell].sort()

    def vertex_xy(self, v: Vertex) -> XY:
        return self.x0 + v[0] * SQ3 * HEX / 2, self.y0 + v[1] * HEX / 2

    def center(self, cell: Cell) -> XY:
        c, r = cell
        return self.x0 + SQ3 * HEX * (c + 0.5 * (r & 1)), self.y0 + 1.5 * HEX * r


def noise_field(rng: random.Random, scale: float) -> Callable[[float, float], float]:
    """Smooth value noise in [-1, 1] with features about ``scale`` wide: random values on a
    square grid, blended with smoothstep. Only + - * / are used, so that every platform
    computes the same board (no libm functions, whose last bit may differ)."""
    nx, ny = int(ASPECT / scale) + 4, int(1 / scale) + 4
    values = [[rng.uniform(-1.0, 1.0) for _ in range(nx)] for _ in range(ny)]

    def field(x: float, y: float) -> float:
        gx, gy = x / scale + 1.0, y / scale + 1.0  # board coordinates may dip below 0
        ix, iy = int(gx), int(gy)
        fx, fy = gx - ix, gy - iy
        sx, sy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
        row0, row1 = values[iy], values[iy + 1]
        top = row0[ix] + (row0[ix + 1] - row0[ix]) * sx
        bottom = row1[ix] + (row1[ix + 1] - row1[ix]) * sx
        return top + (bottom - top) * sy

    return field


# --- partitioning --------------------------------------------------------------------------


def dist(a: XY, b: XY) -> float:
    dx, dy = a[0] - b[0], a[1] - b[1]
    return math.sqrt(dx * dx + dy * dy)


def kmeans(points: dict[Cell, XY], k: int, rng: random.Random, rounds: int = 12) -> list[XY]:
    """Lloyd's k-means on cell centres, seeded by farthest-point sampling."""
    cells = sorted(points)
    centers = [points[rng.choice(cells)]]
    while len(centers) < k:
        far = max(cells, key=lambda c: (min(dist(points[c], m) for m in centers), c))
        centers.append(points[far])
    for _ in range(rounds):
        groups: list[list[XY]] = [[] for _ in range(k)]
        for c in cells:
            p = points[c]
            groups[min(range(k), key=lambda i: dist(p, centers[i]))].append(p)
        centers = [
            (sum(p[0] for p in g) / len(g), sum(p[1] for p in g) / len(g)) if g else centers[i]
            for i, g in enumerate(groups)
        ]
    return centers


def grow(
    cells: set[Cell],
    adj: dict[Cell, list[Cell]],
    centers: list[XY],
    pos: dict[Cell, XY],
    rng: random.Random,
    wobble: float,
) -> dict[Cell, int]:
    """Split ``cells`` into ``len(centers)`` connected parts of nearly equal size.

    The smallest part that can still grow takes its cheapest frontier cell; the cost is the
    distance to the part's centre, less a bonus per cell of the part already adjacent, plus a
    fixed random wobble per cell (irregular borders).
    """
    k = len(centers)
    noise = {c: rng.random() for c in sorted(cells)}
    owner: dict[Cell, int] = {}
    for i, m in enumerate(centers):
        free = [c for c in sorted(cells) if c not in owner]
        owner[min(free, key=lambda c: dist(pos[c], m))] = i
    sizes = [1] * k

    def cost(i: int, c: Cell) -> float:
        same = sum(1 for n in adj[c] if owner.get(n) == i)
        return dist(pos[c], centers[i]) / HEX - 0.9 * same + wobble * noise[c]

    while len(owner) < len(cells):
        for i in sorted(range(k), key=lambda j: (sizes[j], j)):
            frontier = {
                n for c, o in owner.items() if o == i for n in adj[c] if n in cells
            } - owner.keys()
            if frontier:
                best = min(sorted(frontier), key=lambda c: cost(i, c))
                owner[best] = i
                sizes[i] += 1
                break
    return owner


def balance(owner: dict[Cell, int], adj: dict[Cell, list[Cell]], rounds: int = 300) -> None:
    """Even out part sizes in place: move a border cell from a part to a neighbouring part
    at least two cells smaller, keeping the donor connected, until no such move is left."""
    for _ in range(rounds):
        sizes: dict[int, int] = {}
        for o in owner.values():
            sizes[o] = sizes.get(o, 0) + 1
        moves = []
        for c in sorted(owner):
            i = owner[c]
            for j in sorted({owner[n] for n in adj[c] if n in owner} - {i}):
                to_j = sum(1 for n in adj[c] if owner.get(n) == j)
                gap = sizes[i] - sizes[j]
                if gap >= 2 and to_j >= 2:
                    to_i = sum(1 for n in adj[c] if owner.get(n) == i)
                    moves.append((-gap, to_i - to_j, c, j))
        for _gap, _shape, c, j in sorted(moves):
            i = owner[c]
            rest = {d for d, o in owner.items() if o == i and d != c}
            if connected(rest, lambda d: adj[d]):
                owner[c] = j
                break
        else:
            return


def territory_neighbors(owner: dict[Cell, int], adj: dict[Cell, list[Cell]]) -> dict:
    """Owner -> owners across a cell edge (lake and sea cells are not in ``owner``)."""
    nbrs: dict[int, set[int]] = {o: set() for o in owner.values()}
    for c, o in owner.items():
        for n in adj[c]:
            if n in owner and owner[n] != o:
                nbrs[o].add(owner[n])
    return nbrs


def connected(nodes: set, adj: Callable[[object], Iterable]) -> bool:
    """True if ``nodes`` is non-empty and connected under ``adj`` restricted to ``nodes``."""
    if not nodes:
        return False
    start = min(nodes)
    seen = {start}
    stack = [start]
    while stack:
        for n in adj(stack.pop()):
            if n in nodes and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == nodes


# --- the board -----------------------------------------------------------------------------


def build_island(lat: Lattice, rng: random.Random, size: int) -> set[Cell]:
    """A connected, hole-free set of ``size``-ish cells grown along a noisy elevation."""
    field = noise_field(rng, 0.3)
    ripple = noise_field(rng, 0.1)
    cx, cy = ASPECT / 2, 0.5

    def height(cell: Cell) -> float:
        x, y = lat.center(cell)
        radial = dist(((x - cx) / (ASPECT * 0.5), (y - cy) / 0.5), (0.0, 0.0))
        return 1.0 - radial + COAST_SWELL * field(x, y) + COAST_RIPPLE * ripple(x, y)

    margin = 1.6 * HEX
    inner = {
        cell
        for cell in lat.cells
        if margin < lat.center(cell)[0] < ASPECT - margin
        and margin < lat.center(cell)[1] < 1 - margin
    }
    start = min(inner, key=lambda c: dist(lat.center(c), (cx, cy)))
    land = {start}
    heap = [(-height(n), n) for n in lat.adj[start] if n in inner]
    heapq.heapify(heap)
    while len(land) < size and heap:
        _, cell = heapq.heappop(heap)
        if cell in land:
            continue
        land.add(cell)
        for n in lat.adj[cell]:
            if n in inner and n not in land:
                heapq.heappush(heap, (-height(n), n))
    # fill enclosed sea
    sea = set(lat.cells) - land
    outside = {c for c in sea if len(lat.adj[c]) < 6}
    stack = list(outside)
    while stack:
        for n in lat.adj[stack.pop()]:
            if n in sea and n not in outside:
                outside.add(n)
                stack.append(n)
    return set(lat.cells) - outside


def carve_lakes(
    lat: Lattice, land: set[Cell], region_of: dict[Cell, int], rng: random.Random
) -> list[set[Cell]]:
    """Lakes of 3-4 cells on region borders (where three regions meet, if possible), away
    from the coast and spread apart."""
    vertex_cells: dict[Vertex, list[Cell]] = {}
    for cell in sorted(land):
        for v in lat.corners[cell]:
            vertex_cells.setdefault(v, []).append(cell)

    def inland(cell: Cell) -> bool:
        return len(lat.adj[cell]) == 6 and set(lat.adj[cell]) <= land

    meets = {
        v: len({region_of[c] for c in cs})
        for v, cs in vertex_cells.items()
        if len(cs) == 3 and all(inland(c) for c in cs)
    }
    candidates = sorted(v for v, n in meets.items() if n >= 2)
    lakes: list[set[Cell]] = []
    taken: set[Cell] = set()
    chosen: list[XY] = []
    rng.shuffle(candidates)

    def spread(v: Vertex) -> tuple[float, int, float]:
        d = min((dist(lat.vertex_xy(v), p) for p in chosen), default=0.0)
        return min(d, LAKE_SPACING * HEX), meets[v], d

    while candidates and len(lakes) < LAKE_COUNT:
        # far from the lakes already placed, preferring three-region junctions
        v = max(candidates, key=spread)
        candidates.remove(v)
        lake = set(vertex_cells[v])
        if rng.random() < LAKE_FOURTH_CELL:
            extra = sorted(
                n for c in lake for n in lat.adj[c] if sum(m in lake for m in lat.adj[n]) >= 2
            )
            extra = [n for n in extra if n not in lake and n in region_of and inland(n)]
            if extra:
                lake.add(rng.choice(extra))
        near = lake | {n for c in lake for n in lat.adj[c]}
        if near & taken:
            continue
        rest = {c: region_of[c] for c in region_of if c not in lake}
        if not all(
            connected({c for c, r in rest.items() if r == reg}, lambda c: lat.adj[c])
            for reg in {region_of[c] for c in lake}
        ):
            continue
        lakes.append(lake)
        taken |= near
        chosen.append(lat.vertex_xy(v))
        for c in lake:
            del region_of[c]
    return lakes


def trace_loops(lat: Lattice, owner: dict[Cell, int], who: int) -> list[list[Vertex]]:
    """The outline loops of the cells owned by ``who``, as lattice vertices in turning order."""
    nxt: dict[Vertex, Vertex] = {}
    for cell, o in owner.items():
        if o != who:
            continue
        vs = lat.corners[cell]
        for i in range(6):
            a, b = vs[i], vs[(i + 1) % 6]
            other = [c for c in lat.edge_cells[(min(a, b), max(a, b))] if c != cell]
            if not other or owner.get(other[0], SEA) != who:
                if a in nxt:
                    raise BoardError(f"owner {who} pinches at {a}")
                nxt[a] = b
    loops = []
    while nxt:
        start = min(nxt)
        loop = [start]
        v = nxt.pop(start)
        while v != start:
            loop.append(v)
            v = nxt.pop(v)
        loops.append(loop)
    return loops


def smooth_positions(lat: Lattice, owner: dict[Cell, int], rng: random.Random) -> dict[Vertex, XY]:
    """Jittered lattice positions; border chains are then smoothed between their junctions."""
    pos: dict[Vertex, XY] = {}
    for v in sorted({v for cell in lat.cells for v in lat.corners[cell]}):
        x, y = lat.vertex_xy(v)
        while True:  # a uniform point in the unit disc, without trigonometry
            dx, dy = rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)
            if dx * dx + dy * dy <= 1.0:
                break
        pos[v] = (x + JITTER * HEX * dx, y + JITTER * HEX * dy)
    links: dict[Vertex, set[Vertex]] = {}
    for (a, b), cells in lat.edge_cells.items():
        sides = {owner.get(c, SEA) for c in cells}
        if len(cells) == 1:
            sides.add(SEA)
        if len(sides) == 2:
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    # A vertex on a lake shore slides along the shore (junctions included: round lakes);
    # any other vertex inside a chain is pulled towards its two chain neighbours.
    along: dict[Vertex, tuple[Vertex, Vertex]] = {
        v: (min(ns), max(ns)) for v, ns in links.items() if len(ns) == 2
    }
    for who in sorted({o for o in owner.values() if o >= LAKE_BASE}):
        for loop in trace_loops(lat, owner, who):
            for i, v in enumerate(loop):
                along[v] = (loop[i - 1], loop[(i + 1) % len(loop)])
    chain = sorted(along)
    for _ in range(SMOOTH_PASSES):
        new = {}
        for v in chain:
            a, b = along[v]
            mx, my = (pos[a][0] + pos[b][0]) / 2, (pos[a][1] + pos[b][1]) / 2
            new[v] = (
                pos[v][0] + SMOOTH_WEIGHT * (mx - pos[v][0]),
                pos[v][1] + SMOOTH_WEIGHT * (my - pos[v][1]),
            )
        pos.update(new)
    return pos


def assign_terrain(
    regions: list[list[int]], neighbors: dict[int, set[int]], rng: random.Random
) -> dict[int, str]:
    """One forest, mountain, steppe and two grasslands per region (R1), with few equal
    neighbours: a seeded local search over swaps inside regions."""
    terrain: dict[int, str] = {}
    for members in regions:
        kinds = list(TERRAINS)
        rng.shuffle(kinds)
        terrain.update(zip(members, kinds, strict=True))

    def clash(t: int) -> float:
        weight = 1.0 if terrain[t] == "grassland" else 3.0
        return weight * sum(1 for n in neighbors[t] if terrain[n] == terrain[t])

    for _ in range(4000):
        a, b = rng.sample(rng.choice(regions), 2)
        if terrain[a] == terrain[b]:
            continue
        before = clash(a) + clash(b)
        terrain[a], terrain[b] = terrain[b], terrain[a]
        if clash(a) + clash(b) > before:
            terrain[a], terrain[b] = terrain[b], terrain[a]
    return terrain


def anchor_point(
    cells: list[Cell], lat: Lattice, owner: dict[Cell, int], pos: dict[Vertex, XY], poly: list[XY]
) -> XY:
    """The candidate point farthest from the territory's outline (cell centres and inner
    lattice vertices), with a slight pull towards the middle."""
    who = owner[cells[0]]
    candidates = [
        (sum(pos[v][0] for v in lat.corners[c]) / 6, sum(pos[v][1] for v in lat.corners[c]) / 6)
        for c in cells
    ]
    inner = {
        v
        for c in cells
        for v in lat.corners[c]
        if all(owner.get(n) == who for n in lat.adj[c] if v in lat.corners[n])
    }
    candidates += [pos[v] for v in sorted(inner)]
    n = len(candidates)
    mid = (sum(p[0] for p in candidates) / n, sum(p[1] for p in candidates) / n)
    edges = geometry.polygon_edges(poly)

    def score(p: XY) -> float:
        clearance = min(geometry.point_segment_distance(p, a, b) for a, b in edges)
        return clearance - 0.15 * dist(p, mid)

    best = max(candidates, key=score)
    if not geometry.point_in_polygon(best, poly):
        raise BoardError("anchor outside its territory")
    return best


def norm(p: XY) -> list[float]:
    return [round(p[0] / ASPECT, 4), round(p[1], 4)]


def split_region(
    cells: set[Cell],
    reg: int,
    lat: Lattice,
    centers: dict[Cell, XY],
    rng: random.Random,
    jitter: float,
) -> dict[Cell, int]:
    """Five balanced territories of a region; ``jitter`` (hex radii) moves their seeds."""
    ms = kmeans({c: centers[c] for c in cells}, PER_REGION, rng)
    ms = [
        (x + rng.uniform(-jitter, jitter) * HEX, y + rng.uniform(-jitter, jitter) * HEX)
        for x, y in ms
    ]
    ms.sort(key=lambda m: (m[1], m[0]))
    part = grow(cells, lat.adj, ms, centers, rng, wobble=0.8)
    balance(part, lat.adj)
    return {c: PER_REGION * reg + k for c, k in part.items()}


def region_ok(reg: int, owner: dict[Cell, int], lat: Lattice) -> bool:
    """The region's territories are hole-free and have 3 to 8 neighbours (lakes not yet
    carved into ``owner`` count as no neighbour)."""
    nbrs = territory_neighbors(owner, lat.adj)
    ids = range(PER_REGION * reg, PER_REGION * reg + PER_REGION)
    near = set(ids) | {n for t in ids for n in nbrs[t]}
    return all(3 <= len(nbrs[t]) <= 8 for t in near) and all(
        len(trace_loops(lat, owner, t)) == 1 for t in ids
    )


def river_lines(lat: Lattice, owner: dict[Cell, int]) -> list[list[Vertex]]:
    """Borders between territories of different regions, chained into polylines that end
    where three borders meet, at a lake or at the coast."""
    links: dict[Vertex, set[Vertex]] = {}
    for (a, b), cells in lat.edge_cells.items():
        ts = [owner.get(c, SEA) for c in cells]
        if (
            len(ts) == 2
            and all(0 <= t < LAKE_BASE for t in ts)
            and ts[0] // PER_REGION != ts[1] // PER_REGION
        ):
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    lines: list[list[Vertex]] = []
    used: set[tuple[Vertex, Vertex]] = set()
    ends = sorted(v for v, ns in links.items() if len(ns) != 2)
    for start in ends + sorted(links):  # then closed loops, if any
        for first in sorted(links[start]):
            if (start, first) in used:
                continue
            line = [start, first]
            used |= {(start, first), (first, start)}
            while len(links[line[-1]]) == 2 and line[-1] != start:
                step = next(n for n in sorted(links[line[-1]]) if n != line[-2])
                used |= {(line[-1], step), (step, line[-1])}
                line.append(step)
            lines.append(line)
    return lines


def generate(seed: int = SEED) -> dict:
    """The board, deterministically from ``seed`` (default: the stored, valid seed)."""
    board = build(seed)
    problems = validate(board)
    if problems:
        raise BoardError("; ".join(problems))
    return board


def build(seed: int) -> dict:
    """The board from ``seed``, unchecked (see :func:`validate`)."""
    rng = random.Random(seed)
    lat = Lattice()
    land = build_island(lat, rng, REGIONS * PER_REGION * CELLS_PER_TERRITORY + 3 * LAKE_COUNT)
    centers = {c: lat.center(c) for c in lat.cells}

    # 12 regions, numbered in reading order (3 bands of 4, left to right)
    region_centers = kmeans({c: centers[c] for c in land}, REGIONS, rng)
    region_centers.sort(key=lambda m: m[1])
    region_centers = [
        m for band in range(3) for m in sorted(region_centers[4 * band : 4 * band + 4])
    ]
    region_of = grow(land, lat.adj, region_centers, centers, rng, wobble=1.2)
    lakes = carve_lakes(lat, land, region_of, rng)
    balance(region_of, lat.adj)

    # 5 territories per region, ids 5 * region + k; a region is split again (other seeds)
    # while one of its territories has a hole or fewer than 3 or more than 8 neighbours.
    owner: dict[Cell, int] = {}
    members = {reg: {c for c, r in region_of.items() if r == reg} for reg in range(REGIONS)}
    for reg in range(REGIONS):
        owner.update(split_region(members[reg], reg, lat, centers, rng, jitter=0.0))
    for _ in range(3):
        changed = False
        for reg in range(REGIONS):
            attempt = 0
            while not region_ok(reg, owner, lat) and attempt < RESPLITS:
                attempt += 1
                owner.update(split_region(members[reg], reg, lat, centers, rng, jitter=1.5))
                changed = True
        if not changed:
            break
    for j, lake in enumerate(lakes):
        for c in lake:
            owner[c] = LAKE_BASE + j

    pos = smooth_positions(lat, owner, rng)
    polygons: dict[int, list[XY]] = {}
    for who in sorted(set(owner.values())):
        loops = trace_loops(lat, owner, who)
        if len(loops) != 1:
            raise BoardError(f"owner {who} has {len(loops)} outlines (hole or split)")
        polygons[who] = [pos[v] for v in loops[0]]

    territory_ids = list(range(REGIONS * PER_REGION))
    out_polys = {t: [norm(p) for p in polygons[t]] for t in territory_ids}
    lake_polys = [[norm(p) for p in polygons[LAKE_BASE + j]] for j in range(len(lakes))]
    neighbors = geometry.derive_neighbors(out_polys, lake_polys)
    regions = [list(range(PER_REGION * r, PER_REGION * r + PER_REGION)) for r in range(REGIONS)]
    terrain = assign_terrain(regions, neighbors, rng)

    cell_level = territory_neighbors({c: o for c, o in owner.items() if o < LAKE_BASE}, lat.adj)
    if neighbors != cell_level:
        raise BoardError("neighbours derived from polygons differ from the cell layout")
    rivers = river_lines(lat, owner)

    territories = []
    for t in territory_ids:
        cells = sorted(c for c, o in owner.items() if o == t)
        anchor = anchor_point(cells, lat, owner, pos, polygons[t])
        territories.append(
            {
                "id": t,
                "terrain": terrain[t],
                "region": t // PER_REGION,
                "neighbors": sorted(neighbors[t]),
                "polygon": out_polys[t],
                "anchor": norm(anchor),
            }
        )
    board = {
        "format": "clans-board/1",
        "id": "clans-pi-original",
        "name": "The Isle of Nine Tarns",
        "aspect": ASPECT,
        "territories": territories,
        "lakes": [{"polygon": p} for p in lake_polys],
        "rivers": [{"points": [norm(pos[v]) for v in line]} for line in rivers],
    }
    return board


# --- checks used while searching seeds (the tests check the shipped file independently) ---


def validate(board: dict) -> list[str]:
    """Requirements from R1/R2 and the product issue that a seed may break."""
    problems = []
    ts = board["territories"]
    nbrs = {t["id"]: set(t["neighbors"]) for t in ts}
    degrees = [len(n) for n in nbrs.values()]
    if min(degrees) < 3 or max(degrees) > 8:
        problems.append(f"degrees {min(degrees)}..{max(degrees)}")
    if not connected(set(nbrs), lambda t: nbrs[t]):
        problems.append("neighbour graph not connected")
    for reg in range(REGIONS):
        members = {t["id"] for t in ts if t["region"] == reg}
        if not connected(members, lambda t: nbrs[t]):
            problems.append(f"region {reg} not contiguous")
    if not 8 <= len(board["lakes"]) <= 10:
        problems.append(f"{len(board['lakes'])} lakes")
    areas = [geometry.polygon_area(t["polygon"]) for t in ts]
    if max(areas) > 1.8 * min(areas):
        problems.append(f"area ratio {max(areas) / min(areas):.2f}")
    polys = [t["polygon"] for t in ts] + [lake["polygon"] for lake in board["lakes"]]
    if not all(geometry.is_simple(p) for p in polys):
        problems.append("a polygon is not simple")
    if crossing_edges(polys):
        problems.append("borders cross")
    for t in ts:
        poly = [(x * ASPECT, y) for x, y in t["polygon"]]
        a = (t["anchor"][0] * ASPECT, t["anchor"][1])
        room = min(
            geometry.point_segment_distance(a, p, q) for p, q in geometry.polygon_edges(poly)
        )
        if room < 0.9 * HEX:
            problems.append(f"territory {t['id']} anchor has only {room / HEX:.2f} hex of room")
    return problems


def compactness(poly: list[list[float]]) -> float:
    """4 pi area / perimeter^2 on the true-scale polygon: 1 for a disc, small for slivers."""
    true = [(x * ASPECT, y) for x, y in poly]
    perimeter = sum(dist(a, b) for a, b in geometry.polygon_edges(true))
    return 4 * math.pi * geometry.polygon_area(true) / perimeter**2


def crossing_edges(polys: list[list[list[float]]]) -> bool:
    """True if two distinct border segments of the map meet other than at a shared end."""
    segs = {geometry.edge_key(a, b) for p in polys for a, b in geometry.polygon_edges(p)}
    grid: dict[tuple[int, int], list] = {}
    cell = 0.04
    for s in segs:
        (x1, y1), (x2, y2) = s
        for gx in range(int(min(x1, x2) / cell), int(max(x1, x2) / cell) + 1):
            for gy in range(int(min(y1, y2) / cell), int(max(y1, y2) / cell) + 1):
                grid.setdefault((gx, gy), []).append(s)
    for bucket in grid.values():
        for i, s in enumerate(bucket):
            for u in bucket[i + 1 :]:
                shared = {s[0], s[1]} & {u[0], u[1]}
                if shared:
                    if len(shared) == 2:
                        return True
                    continue
                if geometry.segments_intersect(s[0], s[1], u[0], u[1]):
                    return True
    return False


def dumps(board: dict) -> str:
    """Stable JSON text: one territory, lake or river per line, keys sorted."""
    lines = ["{"]
    items = sorted(board.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, list):
            lines.append(f" {json.dumps(key)}: [")
            for j, item in enumerate(value):
                item_comma = "," if j < len(value) - 1 else ""
                text = json.dumps(item, sort_keys=True, separators=(",", ":"))
                lines.append(f"  {text}{item_comma}")
            lines.append(f" ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="verify the file is up to date")
    group.add_argument("--search", type=int, metavar="N", help="try N seeds from SEED on")
    args = parser.parse_args(argv)
    if args.search:
        for seed in range(SEED, SEED + args.search):
            started = time.perf_counter()
            try:
                board = generate(seed)
            except BoardError as err:
                print(f"seed {seed}: {err}")
                continue
            print(f"seed {seed}: ok {stats(board)} ({time.perf_counter() - started:.2f} s)")
        return 0
    text = dumps(generate())
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            name = OUT.relative_to(ROOT)
            print(f"{name} is out of date: run scripts/make/board.py", file=sys.stderr)
            return 1
        print(f"{OUT.relative_to(ROOT)} is up to date")
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(text)} bytes)")
    return 0


def stats(board: dict) -> str:
    """A one-line summary: degree histogram, lakes, rivers, area spread, equal neighbours."""
    ts = board["territories"]
    hist: dict[int, int] = {}
    for t in ts:
        hist[len(t["neighbors"])] = hist.get(len(t["neighbors"]), 0) + 1
    areas = [geometry.polygon_area(t["polygon"]) for t in ts]
    terrain = {t["id"]: t["terrain"] for t in ts}
    same = sum(1 for t in ts for n in t["neighbors"] if n > t["id"] and terrain[n] == t["terrain"])
    roundness = min(compactness(t["polygon"]) for t in ts)
    return (
        f"roundness {roundness:.2f} "
        f"degrees {dict(sorted(hist.items()))} lakes {len(board['lakes'])} "
        f"rivers {len(board['rivers'])} area max/min {max(areas) / min(areas):.2f} "
        f"same-terrain pairs {same}"
    )


if __name__ == "__main__":
    sys.exit(main())
