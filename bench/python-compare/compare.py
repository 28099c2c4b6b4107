"""Corridor's Python package against extremitypathfinder and pyvisgraph on the same random
polygon scenes and queries at radius 0, in one run: path lengths (all three are exact),
build time and per-query time including the Python call.

Scenes: a 100 x 100 box with 6-31 disjoint convex and star-shaped polygons, 36-220
vertices in all, coordinates on Corridor's snap grid (1e-4) so that all three see the same
corners. Queries: random pairs of free points (clearance > 0.01). Each query is answered
by the three planners in turn (A, B, C, A, B, C, ...), timed one by one as CPU time of
the thread (time.thread_time); medians are reported. Corridor's call is `m.path(s, g)` followed by
reading `.length` and `.points` (the NumPy array).
"""

import argparse
import importlib.metadata
import math
import os
import platform
import random
import statistics
import time

import corridor
import pyvisgraph as vg
from extremitypathfinder import PolygonEnvironment


def snap(v):
    return round(v * 1e4) / 1e4


def polygon(rng, cx, cy, r, k, star):
    """A convex polygon (vertices on a circle at random angles) or a star (alternating
    radii r and r/2 at even angles), counter-clockwise."""
    if star:
        a0 = rng.uniform(0, 2 * math.pi)
        angles = [a0 + 2 * math.pi * i / k for i in range(k)]
        radii = [r if i % 2 == 0 else r * rng.uniform(0.35, 0.6) for i in range(k)]
    else:
        angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(k))
        radii = [r] * k
    pts = [(snap(cx + q * math.cos(a)), snap(cy + q * math.sin(a))) for a, q in zip(angles, radii)]
    # Drop repeated vertices after snapping, keep at least a triangle.
    out = [p for i, p in enumerate(pts) if p != pts[i - 1]]
    return out if len(out) >= 3 else None


def scene(rng):
    """6-31 disjoint polygons (bounding circles 0.5 apart) of 6-7 vertices in the box."""
    n = rng.randint(6, 31)
    polys, circles = [], []
    while len(polys) < n:
        r = rng.uniform(2.5, 9.0)
        cx, cy = rng.uniform(r + 1, 99 - r), rng.uniform(r + 1, 99 - r)
        if any(math.hypot(cx - x, cy - y) < r + q + 0.5 for x, y, q in circles):
            continue
        p = polygon(rng, cx, cy, r, rng.randint(6, 7), star=rng.random() < 0.5)
        if p:
            polys.append(p)
            circles.append((cx, cy, r))
    return polys


BOX = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]


def timed(f):
    """The value and the CPU time of this thread (the machine is shared: wall clock would
    count other processes' time slices)."""
    t = time.thread_time()
    value = f()
    return value, time.thread_time() - t


def build_corridor(polys):
    return corridor.Map(corridor.Environment.from_polygons(BOX, polys))


def build_epf(polys):
    env = PolygonEnvironment()
    env.store(BOX, [list(reversed(p)) for p in polys], validate=False)  # holes clockwise; store() prepares
    return env


def build_pvg(polys):
    g = vg.VisGraph()
    g.build([[vg.Point(x, y) for x, y in p] for p in polys], workers=1, status=False)
    return g


def query_corridor(m, s, g):
    p = m.path(s, g)
    p.points  # the (n, 2) array, as a user would read it
    return p.length


def query_epf(env, s, g):
    _, length = env.find_shortest_path(s, g)
    return length


def query_pvg(graph, s, g):
    path = graph.shortest_path(vg.Point(*s), vg.Point(*g))
    return sum(math.hypot(b.x - a.x, b.y - a.y) for a, b in zip(path, path[1:]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=12)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--pvg-queries", type=int, default=40, help="pyvisgraph answers the first N queries of a scene")
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    versions = {p: importlib.metadata.version(p) for p in ("corridor", "extremitypathfinder", "pyvisgraph", "numpy")}
    print(f"# {platform.python_implementation()} {platform.python_version()}, {versions}, load {os.getloadavg()[0]:.1f}")
    print()
    print("| scene | polygons | vertices | build ms: corridor / epf / pyvisgraph | query µs p50: corridor warm, interleaved / epf / pyvisgraph | epf ÷ corridor (warm, interleaved) | pyvisgraph ÷ corridor (warm, interleaved) | max length difference |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    # Warm-up: first calls (imports, caches) are not timed.
    warm = scene(random.Random(0))
    for build, query in ((build_corridor, query_corridor), (build_epf, query_epf), (build_pvg, query_pvg)):
        query(build(warm), (0.5, 0.5), (99.5, 99.5))
    ratios_epf, ratios_pvg, builds = [], [], []
    worst = 0.0
    for index in range(args.scenes):
        polys = scene(rng)
        m, t_c = timed(lambda: build_corridor(polys))
        e, t_e = timed(lambda: build_epf(polys))
        v, t_v = timed(lambda: build_pvg(polys))
        builds.append((t_c, t_e, t_v))
        queries = []
        while len(queries) < args.queries:
            s = (snap(rng.uniform(0, 100)), snap(rng.uniform(0, 100)))
            g = (snap(rng.uniform(0, 100)), snap(rng.uniform(0, 100)))
            if all(m.clearance([s, g]) > 0.01):  # NaN (inside an obstacle) compares False
                queries.append((s, g))
        tc, te, tv = [], [], []
        for i, (s, g) in enumerate(queries):
            lc, dt = timed(lambda: query_corridor(m, s, g))
            tc.append(dt)
            le, dt = timed(lambda: query_epf(e, s, g))
            te.append(dt)
            worst = max(worst, abs(lc - le))
            if i < args.pvg_queries:
                lv, dt = timed(lambda: query_pvg(v, s, g))
                tv.append(dt)
                worst = max(worst, abs(lc - lv))
                if abs(lc - lv) > 1e-6 or abs(lc - le) > 1e-6:
                    print(f"<!-- scene {index} query {i}: {s} -> {g}: corridor {lc}, epf {le}, pyvisgraph {lv} -->")
        # Corridor again, its queries one after the other (warm caches, as in an
        # application answering many queries); the interleaved times above pay for the
        # caches the pure-Python peers' queries evicted.
        tw = [timed(lambda: query_corridor(m, s, g))[1] for s, g in queries]
        qc, qe, qv, qw = (statistics.median(t) * 1e6 for t in (tc, te, tv, tw))
        ratios_epf.append((qe / qw, qe / qc))
        ratios_pvg.append((qv / qw, qv / qc))
        nv = sum(len(p) for p in polys)
        diff = max(abs(query_corridor(m, s, g) - query_epf(e, s, g)) for s, g in queries)
        print(
            f"| {index} | {len(polys)} | {nv} | {t_c * 1e3:.1f} / {t_e * 1e3:.1f} / {t_v * 1e3:.0f} "
            f"| {qw:.1f}, {qc:.1f} / {qe:.0f} / {qv:.0f} | {qe / qw:.0f}×, {qe / qc:.0f}× | {qv / qw:.0f}×, {qv / qc:.0f}× | {diff:.1e} |"
        )
    print()
    def span(ratios, i):
        r = [x[i] for x in ratios]
        return f"{statistics.median(r):.0f}× (min {min(r):.0f}×)"

    print(
        f"Per-query speed-up, median over scenes, warm: {span(ratios_epf, 0)} over extremitypathfinder, "
        f"{span(ratios_pvg, 0)} over pyvisgraph; interleaved: {span(ratios_epf, 1)} and {span(ratios_pvg, 1)}; "
        f"build: corridor faster than extremitypathfinder in {sum(c < e for c, e, _ in builds)}/{len(builds)} scenes "
        f"and than pyvisgraph in {sum(c < v for c, _, v in builds)}/{len(builds)}; largest length difference {worst:.1e}."
    )


if __name__ == "__main__":
    main()
