"""Visibility from Python: visibility polygons, line of sight and vectorised visible(),
checked against closed-form areas, an independent segment-against-box test, each other
(two different walks of the ECM) and dynamic updates."""

import math
import random

import numpy as np
import pytest

import corridor

WALL = (4.0, 0.0, 6.0, 4.0)  # the conftest room's wall block: x0, y0, x1, y1


def shoelace(points):
    x, y = np.asarray(points, dtype=float).T
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def segment_meets_box(p, q, box):
    """Whether the closed segment pq meets the closed box (Liang-Barsky clipping): an
    oracle for line of sight in the wall room that shares no code with the library."""
    x0, y0, x1, y1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, lo, hi, s in ((dx, x0, x1, p[0]), (dy, y0, y1, p[1])):
        if d == 0.0:
            if s < lo or s > hi:
                return False
            continue
        a, b = (lo - s) / d, (hi - s) / d
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
        if t0 > t1:
            return False
    return True


def inside(polygon, point):
    """Even-odd point-in-polygon test."""
    (x, y), result = point, False
    n = len(polygon)
    for i in range(n):
        (ax, ay), (bx, by) = polygon[i], polygon[(i + 1) % n]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            result = not result
    return result


def distance_to_boundary(polygon, point):
    a = np.asarray(polygon, dtype=float)
    ab = np.roll(a, -1, axis=0) - a
    ap = np.asarray(point, dtype=float) - a
    t = np.clip(np.sum(ap * ab, axis=1) / np.maximum(np.sum(ab * ab, axis=1), 1e-300), 0, 1)
    return float(np.min(np.linalg.norm(ap - t[:, None] * ab, axis=1)))


def free_points(m, count, seed, bounds=((0, 0), (10, 6))):
    rng = np.random.default_rng(seed)
    (x0, y0), (x1, y1) = bounds
    pts = np.column_stack([rng.uniform(x0, x1, 4 * count), rng.uniform(y0, y1, 4 * count)])
    c = m.clearance(pts)
    return pts[~np.isnan(c) & (c > 1e-9)][:count]


def test_an_empty_room_is_seen_whole():
    m = corridor.Map(corridor.Environment.rectangle((0, 0), (10, 6)))
    for point in [(1, 1), (5, 3), (9.5, 0.5)]:
        seen = m.visibility_polygon(point)
        assert isinstance(seen, corridor.VisibilityPolygon)
        assert seen.points.dtype == np.float64 and seen.points.shape == (4, 2)
        assert seen.area == pytest.approx(60.0, abs=1e-9)
        assert seen.edge_kinds == ["wall"] * 4
        assert sorted(map(tuple, seen.points.tolist())) == [(0, 0), (0, 6), (10, 0), (10, 6)]
        assert seen.origin == point and len(seen) == 4


def test_a_convex_room_is_seen_whole_from_anywhere():
    ring = [(math.cos(a) * 5 + 5, math.sin(a) * 4 + 5) for a in np.linspace(0, 2 * math.pi, 9)[:-1]]
    m = corridor.Map(corridor.Environment.from_polygons(ring))
    for point in free_points(m, 20, seed=3, bounds=((0, 0), (10, 10))):
        seen = m.visibility_polygon(point)
        # The ECM's free space exactly; the given ring up to the ECM's coordinate grid
        # (corners snapped to multiples of 1e-4 here).
        assert seen.area == pytest.approx(m.free_area, rel=1e-12)
        assert seen.area == pytest.approx(abs(shoelace(ring)), abs=1e-3)
        assert set(seen.edge_kinds) == {"wall"}


def test_the_wall_casts_a_shadow(room_map):
    seen = room_map.visibility_polygon((1, 1))
    assert "window" in seen.edge_kinds and len(seen.edge_kinds) == len(seen.points)
    # The polygon's own area, by the shoelace formula, counter-clockwise.
    assert seen.area == pytest.approx(shoelace(seen.points), rel=1e-12)
    assert 0 < seen.area < 60 - 8
    # Seen from (1, 1), the ray over the block's corner (4, 4) reaches the ceiling at
    # (6, 6): everything right of the block is in its shadow; left of it is seen.
    assert not inside(seen.points, (9, 1)) and inside(seen.points, (2, 5))


def test_polygon_agrees_with_line_of_sight(room_map):
    """Two different walks of the ECM (the angular sweep building the polygon and the
    segment walk) must agree on every candidate away from the polygon's boundary."""
    rng = random.Random(7)
    for origin in free_points(room_map, 8, seed=1):
        seen = room_map.visibility_polygon(origin)
        for q in free_points(room_map, 60, seed=rng.randrange(1 << 30)):
            if distance_to_boundary(seen.points, q) < 1e-7:
                continue
            assert inside(seen.points, q) == room_map.line_of_sight(origin, q), (origin, q)


def test_line_of_sight_matches_an_independent_oracle(room_map):
    ps, qs = free_points(room_map, 200, seed=11), free_points(room_map, 200, seed=12)
    for p, q in zip(ps, qs):
        assert room_map.line_of_sight(p, q) == (not segment_meets_box(p, q, WALL)), (p, q)


def test_a_wall_blocks_and_removing_it_restores_sight(room_map):
    p, q = (1, 1), (9, 1)
    assert room_map.line_of_sight(p, q) is False
    assert room_map.line_of_sight(p, (1, 5)) is True
    (wall,) = room_map.obstacle_ids()
    room_map.remove(wall)
    assert room_map.line_of_sight(p, q) is True
    assert room_map.visibility_polygon(p).area == pytest.approx(60.0, abs=1e-9)
    crate = room_map.insert([(4.5, 0.5), (5.5, 0.5), (5.5, 1.5), (4.5, 1.5)])
    assert room_map.line_of_sight(p, q) is False
    room_map.translate(crate, (0, 2))
    assert room_map.line_of_sight(p, q) is True


def test_line_of_sight_for_a_radius(room_map):
    # Above the wall's top (y = 4) the ceiling is at y = 6: a segment at y = 5 has 1 of
    # room on either side.
    p, q = (1, 5), (9, 5)
    assert room_map.line_of_sight(p, q, radius=0.0)
    assert room_map.line_of_sight(p, q, radius=0.99)
    assert not room_map.line_of_sight(p, q, radius=1.01)
    # A radius never makes a blocked segment free.
    assert not room_map.line_of_sight((1, 1), (9, 1), radius=0.1)


def test_visible_agrees_with_line_of_sight_one_by_one(room_map):
    rng = np.random.default_rng(5)
    for origin in free_points(room_map, 5, seed=2):
        # Uniform over the bounds: some candidates fall in the wall (not seen).
        candidates = np.column_stack([rng.uniform(0, 10, 300), rng.uniform(0, 6, 300)])
        seen = room_map.visible(origin, candidates)
        assert isinstance(seen, np.ndarray) and seen.dtype == np.bool_ and seen.shape == (300,)
        expected = [room_map.line_of_sight(origin, c) for c in candidates]
        assert seen.tolist() == expected
        assert 0 < seen.sum() < 300
    assert room_map.visible((1, 1), np.empty((0, 2))).shape == (0,)
    # Outside the boundary or inside the wall: not seen.
    assert room_map.visible((1, 1), [[20, 20], [5, 2]]).tolist() == [False, False]


def test_visible_on_a_larger_scene():
    m = corridor.Map(corridor.Environment.scene("city"))
    (x0, y0), (x1, y1) = m.environment.bounds
    pts = free_points(m, 200, seed=9, bounds=((x0, y0), (x1, y1)))
    origin, candidates = pts[0], pts[1:]
    seen = m.visible(origin, candidates)
    assert seen.tolist() == [m.line_of_sight(origin, c) for c in candidates]
    poly = m.visibility_polygon(origin)
    for c, s in zip(candidates, seen):
        if distance_to_boundary(poly.points, c) > 1e-7:
            assert inside(poly.points, c) == s


def test_read_only_map_answers_visibility(tmp_path, room_map):
    room_map.save_ecm(tmp_path / "room.ecm", environment=False)
    loaded = corridor.Map.load_ecm(tmp_path / "room.ecm")
    assert loaded.read_only
    assert loaded.visibility_polygon((1, 1)).area == pytest.approx(
        room_map.visibility_polygon((1, 1)).area, rel=1e-12
    )
    assert loaded.line_of_sight((1, 1), (9, 1)) is False


@pytest.mark.parametrize("point", [(5, 2), (20, 20), (4, 2), (0, 3)])
def test_points_not_free_raise_query_error(room_map, point):
    with pytest.raises(corridor.QueryError):
        room_map.visibility_polygon(point)
    with pytest.raises(corridor.QueryError):
        room_map.line_of_sight(point, (1, 1))
    with pytest.raises(corridor.QueryError):
        room_map.visible(point, [[1, 1]])
    # As the far end, a point that is not free is simply not seen.
    assert room_map.line_of_sight((1, 1), point) is False


@pytest.mark.parametrize("bad", [(math.nan, 1), (1, math.inf), np.array([np.nan, 1.0])])
def test_non_finite_points_raise_value_errors(room_map, bad):
    for call in (
        lambda: room_map.visibility_polygon(bad),
        lambda: room_map.line_of_sight(bad, (1, 1)),
        lambda: room_map.line_of_sight((1, 1), bad),
        lambda: room_map.visible(bad, [[1, 1]]),
        lambda: room_map.visible((1, 1), [[2, 2], list(bad)]),
    ):
        with pytest.raises(corridor.QueryError, match="not finite") as e:
            call()
        assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("radius", [-0.5, math.nan, math.inf])
def test_bad_radius(room_map, radius):
    with pytest.raises(corridor.QueryError, match="radius"):
        room_map.line_of_sight((1, 1), (1, 5), radius=radius)


def test_wrong_shapes_and_dtypes(room_map):
    with pytest.raises(ValueError):
        room_map.visibility_polygon([1, 2, 3])
    with pytest.raises(ValueError):
        room_map.visible((1, 1), np.zeros((3, 3)))
    with pytest.raises(ValueError):
        room_map.visible((1, 1), (2, 2))
    with pytest.raises(TypeError):
        room_map.visible((1, 1), np.array([["a", "b"]]))
    with pytest.raises(TypeError):
        room_map.line_of_sight(None, (1, 1))
