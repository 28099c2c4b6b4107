"""Paths, clearance and nearest obstacles, checked against closed-form answers, the
any-angle benchmark's published optimal lengths and a brute-force visibility graph."""

import csv
import functools
import heapq
import math
import random
import threading

import numpy as np
import pytest

import corridor
from conftest import DATA

OVER_THE_WALL = 2 * math.sqrt(18) + 2


def test_path_is_exact_and_shaped(room_map):
    p = room_map.path((1, 1), (9, 1))
    assert isinstance(p.points, np.ndarray)
    assert p.points.dtype == np.float64 and p.points.ndim == 2 and p.points.shape[1] == 2
    assert p.points[0].tolist() == [1, 1] and p.points[-1].tolist() == [9, 1]
    assert p.length == pytest.approx(OVER_THE_WALL, abs=1e-9)
    # The length is the polyline's length.
    assert np.sum(np.linalg.norm(np.diff(p.points, axis=0), axis=1)) == pytest.approx(p.length)
    # Over the corners (4, 4) and (6, 4).
    assert any(np.allclose(q, (4, 4)) for q in p.points)
    assert len(p) == len(p.points)


def test_radius_keeps_distance_and_blocks_narrow_gaps(room_map):
    p = room_map.path((1, 1), (9, 1), radius=0.5)
    assert p.length > OVER_THE_WALL
    assert np.all(room_map.clearance(p.points) >= 0.5 - 1e-6)
    # The gap above the wall is 2 wide: a disk of radius 1.5 does not fit.
    with pytest.raises(corridor.NoPathError) as e:
        room_map.path((1.5, 1.5), (8.5, 1.5), radius=1.5)
    assert isinstance(e.value, LookupError)
    assert "radius 1.5" in str(e.value)


def test_indicative_route_and_corridor(room_map):
    p = room_map.path((1, 1), (9, 1), radius=0.25, preferred_clearance=0.75)
    route = p.indicative_route
    assert route.ndim == 2 and route.shape[1] == 2 and len(route) >= 2
    assert np.all(room_map.clearance(route) >= 0.25 - 1e-6)
    c = p.corridor
    assert c.ndim == 2 and c.shape[1] == 7 and len(c) > 0
    # Each step's clearance is its distance to both nearest wall points.
    left = np.linalg.norm(c[:, 0:2] - c[:, 2:4], axis=1)
    right = np.linalg.norm(c[:, 0:2] - c[:, 4:6], axis=1)
    assert np.allclose(left, c[:, 6], atol=1e-6) and np.allclose(right, c[:, 6], atol=1e-6)


def test_clearance_and_nearest_obstacle_vectorised(room_map):
    pts = np.array([[5.0, 5.0], [2.0, 3.0], [8.0, 1.0], [5.0, 2.0]])
    c = room_map.clearance(pts)
    assert c.shape == (4,)
    # (5, 5): 1 from the top wall and from the wall's top; (2, 3): 2 from the left wall
    # (and from the wall's side); (8, 1): 1 from the floor; (5, 2) is inside the wall.
    assert c[:3] == pytest.approx([1.0, 2.0, 1.0], abs=1e-9)
    assert math.isnan(c[3])
    n = room_map.nearest_obstacle(pts)
    assert n.shape == (4, 2)
    assert np.allclose(np.linalg.norm(n[:3] - pts[:3], axis=1), c[:3])
    assert np.allclose(n[2], (8, 0))
    assert np.all(np.isnan(n[3]))
    assert room_map.clearance((8, 1)) == pytest.approx(1.0)
    assert room_map.nearest_obstacle((8, 1)).tolist() == pytest.approx([8.0, 0.0])
    assert room_map.clearance(np.zeros((0, 2))).shape == (0,)


def test_paths_in_parallel_match_single_queries(room_map):
    rng = np.random.default_rng(7)
    starts = rng.uniform((0.2, 0.2), (3.8, 5.8), size=(200, 2))
    goals = rng.uniform((6.2, 0.2), (9.8, 5.8), size=(200, 2))
    goals[5] = (5, 2)  # inside the wall: no path
    many = room_map.paths(starts, goals, radius=0.1)
    assert len(many) == 200 and many[5] is None
    for i in (0, 1, 99, 199):
        one = room_map.path(starts[i], goals[i], radius=0.1)
        assert many[i].length == one.length
        assert np.array_equal(many[i].points, one.points)
    assert room_map.paths(np.zeros((0, 2)), np.zeros((0, 2))) == []


def test_queries_from_python_threads_while_updating(room_map):
    expected = room_map.path((1, 1), (9, 5)).length
    errors = []

    def query():
        try:
            for _ in range(200):
                p = room_map.path((1, 1), (9, 5))
                # Either before or after the pillar at (2, 5.5) came and went.
                assert p.length >= expected - 1e-9
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=query) for _ in range(4)]
    for t in threads:
        t.start()
    for _ in range(20):
        i = room_map.insert_point((2, 5.5))
        room_map.remove(i)
    for t in threads:
        t.join()
    assert errors == []
    assert room_map.path((1, 1), (9, 5)).length == pytest.approx(expected)


def read_problems(folder):
    with open(folder / "problems.csv") as f:
        return [tuple(map(float, row)) for row in csv.reader(f) if row[0] != "start_x"]


@pytest.mark.parametrize("name", ["custom_maze14x11", "def_i0EREKID_iED_iED_iP"])
def test_anyangle_optimal_lengths(name):
    """The any-angle benchmark's published optimal lengths (an outside oracle)."""
    folder = DATA / "anyangle" / name
    m = corridor.Map.load(folder / "maze.txt")
    problems = np.array(read_problems(folder))
    got = m.paths(problems[:, 0:2], problems[:, 2:4])
    lengths = np.array([p.length for p in got])
    assert np.allclose(lengths, problems[:, 4], rtol=1e-6, atol=1e-5)


def segments_cross(a, b, c, d):
    """Whether segments ab and cd cross properly (not just touch)."""

    def orient(p, q, r):
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return (v > 1e-12) - (v < -1e-12)

    return orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0


def strictly_inside(poly, p):
    """Inside and more than 1e-9 from the boundary."""
    near = min(distance_to_segment(p, a, b) for a, b in zip(poly, poly[1:] + poly[:1]))
    return near > 1e-9 and inside(poly, p)


def distance_to_segment(p, a, b):
    ab = (b[0] - a[0], b[1] - a[1])
    t = ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / (ab[0] ** 2 + ab[1] ** 2)
    t = min(1.0, max(0.0, t))
    return math.dist(p, (a[0] + t * ab[0], a[1] + t * ab[1]))


def inside(poly, p):
    x, y, hit = p[0], p[1], False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def brute_force_oracle(polys):
    """Shortest path lengths by Dijkstra on the visibility graph of the polygons' corners:
    a segment is visible if it crosses no edge properly and its midpoint is not inside a
    polygon."""
    corners = [v for poly in polys for v in poly]
    edges = [(a, b) for poly in polys for a, b in zip(poly, poly[1:] + poly[:1])]

    @functools.lru_cache(maxsize=None)
    def visible(a, b):
        if any(segments_cross(a, b, c, d) for c, d in edges):
            return False
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        return not any(strictly_inside(poly, mid) for poly in polys)

    def length(s, g):
        nodes = [s, g] + corners
        dist = {0: 0.0}
        heap = [(0.0, 0)]
        while heap:
            d, i = heapq.heappop(heap)
            if i == 1:
                return d
            if d > dist.get(i, math.inf):
                continue
            for j in range(len(nodes)):
                if j != i and visible(*sorted((nodes[i], nodes[j]))):
                    nd = d + math.dist(nodes[i], nodes[j])
                    if nd < dist.get(j, math.inf):
                        dist[j] = nd
                        heapq.heappush(heap, (nd, j))
        return math.inf

    return length


def test_random_scene_against_brute_force_visibility_graph():
    rng = random.Random(3)
    polys = []
    for cx in (20, 50, 80):
        for cy in (20, 50, 80):
            k = rng.randint(3, 7)
            r = rng.uniform(5, 12)
            a0 = rng.uniform(0, 2 * math.pi)
            # On the library's snap grid (1e-4), so both sides see the same corners.
            corners = [(cx + r * math.cos(a0 + 2 * math.pi * i / k), cy + r * math.sin(a0 + 2 * math.pi * i / k)) for i in range(k)]
            polys.append([(round(x * 1e4) / 1e4, round(y * 1e4) / 1e4) for x, y in corners])
    env = corridor.Environment.from_polygons([(0, 0), (100, 0), (100, 100), (0, 100)], polys)
    m = corridor.Map(env)
    oracle = brute_force_oracle(polys)
    for _ in range(25):
        while True:
            s = (rng.uniform(0, 100), rng.uniform(0, 100))
            g = (rng.uniform(0, 100), rng.uniform(0, 100))
            if not any(inside(p, s) or inside(p, g) for p in polys):
                break
        assert m.path(s, g).length == pytest.approx(oracle(s, g), abs=1e-9)
