"""Plane geometry of the board (RULES.md R1, R2): pure functions on polygons.

A point is any pair ``(x, y)`` (tuples or JSON lists); a polygon is a sequence of points,
closed implicitly (the last point joins the first, which is not repeated).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Point = Sequence[float]
Polygon = Sequence[Point]
EdgeKey = tuple[tuple[float, float], tuple[float, float]]


def polygon_edges(poly: Polygon) -> list[tuple[Point, Point]]:
    """The edges of ``poly`` as (start, end) pairs, including the closing edge."""
    n = len(poly)
    return [(poly[i], poly[(i + 1) % n]) for i in range(n)]


def signed_area(poly: Polygon) -> float:
    """Shoelace area: positive for counter-clockwise in x-right, y-up axes."""
    total = 0.0
    for (x1, y1), (x2, y2) in polygon_edges(poly):
        total += x1 * y2 - x2 * y1
    return total / 2.0


def polygon_area(poly: Polygon) -> float:
    """Area enclosed by a simple polygon."""
    return abs(signed_area(poly))


def bounding_box(poly: Polygon) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of the points of ``poly``."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


def point_in_polygon(pt: Point, poly: Polygon) -> bool:
    """Even-odd rule; points exactly on the outline may go either way."""
    x, y = pt[0], pt[1]
    inside = False
    for (x1, y1), (x2, y2) in polygon_edges(poly):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def point_segment_distance(pt: Point, a: Point, b: Point) -> float:
    """Euclidean distance from ``pt`` to the closed segment ``ab``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else ((pt[0] - a[0]) * dx + (pt[1] - a[1]) * dy) / length2
    t = max(0.0, min(1.0, t))
    ex, ey = a[0] + t * dx - pt[0], a[1] + t * dy - pt[1]
    return math.sqrt(ex * ex + ey * ey)


def _orient(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True if the closed segments ``ab`` and ``cd`` share at least one point."""
    o1, o2, o3, o4 = _orient(a, b, c), _orient(a, b, d), _orient(c, d, a), _orient(c, d, b)
    if ((o1 > 0 and o2 < 0) or (o1 < 0 and o2 > 0)) and (
        (o3 > 0 and o4 < 0) or (o3 < 0 and o4 > 0)
    ):
        return True
    return (
        (o1 == 0 and _on_segment(a, b, c))
        or (o2 == 0 and _on_segment(a, b, d))
        or (o3 == 0 and _on_segment(c, d, a))
        or (o4 == 0 and _on_segment(c, d, b))
    )


def is_simple(poly: Polygon) -> bool:
    """True if ``poly`` has 3+ distinct points and no two edges meet except neighbours at
    their common end."""
    n = len(poly)
    if n < 3 or len({(p[0], p[1]) for p in poly}) != n:
        return False
    edges = polygon_edges(poly)
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue  # adjacent edges share exactly their common vertex
            if segments_intersect(*edges[i], *edges[j]):
                return False
    return True


def edge_key(a: Point, b: Point, ndigits: int = 6) -> EdgeKey:
    """Direction-free key of the segment ``ab``, coordinates rounded to ``ndigits``."""
    p = (round(a[0], ndigits), round(a[1], ndigits))
    q = (round(b[0], ndigits), round(b[1], ndigits))
    return (p, q) if p <= q else (q, p)


def derive_neighbors(
    territories: Mapping[int, Polygon], lakes: Sequence[Polygon]
) -> dict[int, set[int]]:
    """Neighbour sets from shared borders (R2).

    Two territories are neighbours iff their polygons share an edge segment (same two
    endpoints after rounding to 6 decimals, either direction) that is not a lake shore: not
    an edge of a lake polygon and with its midpoint outside every lake. River borders count
    like any other border; board-edge (coast) edges belong to one polygon only.
    """
    lake_edges = {edge_key(a, b) for lake in lakes for a, b in polygon_edges(lake)}
    lake_boxes = [(bounding_box(lake), lake) for lake in lakes]
    owners: dict[EdgeKey, set[int]] = {}
    for tid, poly in territories.items():
        for a, b in polygon_edges(poly):
            key = edge_key(a, b)
            if key[0] != key[1]:
                owners.setdefault(key, set()).add(tid)
    neighbors: dict[int, set[int]] = {tid: set() for tid in territories}
    for key, ids in owners.items():
        if len(ids) < 2 or key in lake_edges:
            continue
        mx, my = (key[0][0] + key[1][0]) / 2, (key[0][1] + key[1][1]) / 2
        if any(
            x0 <= mx <= x1 and y0 <= my <= y1 and point_in_polygon((mx, my), lake)
            for (x0, y0, x1, y1), lake in lake_boxes
        ):
            continue
        for tid in ids:
            neighbors[tid] |= ids - {tid}
    return neighbors
