"""Times pyvisgraph 0.2.1's VisGraph.build against Corridor's visibility graph on the
same polygons, one input after the other in one run, and prints markdown tables.

Run through run.sh (which sets up the venv and builds the exporter). For every input the
exporter (crates/corridor-visgraph/examples/pyvisgraph_export.rs) writes the polygons as
JSON and times our full and reduced builds, by the default construction and by the
rotational sweep (median CPU ms of the benchmark thread, wall ms beside it); this script then reads the same JSON, builds pyvisgraph's
graph (one worker, no status bar) and compares times and edge counts.

pyvisgraph builds the full visibility graph of the polygon vertices (polygon edges
included), so its edge count is compared with our full graph's edges between obstacle
vertices (our environment also has four boundary corners, whose edges are left out).
"""

import argparse
import importlib.metadata
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import pyvisgraph as vg


def load_polygons(path):
    with open(path) as f:
        data = json.load(f)
    return [[vg.Point(x, y) for x, y in ring] for ring in data["polygons"]]


def time_pyvisgraph(path, reps):
    cpu, wall, edges = [], [], None
    for _ in range(reps):
        polygons = load_polygons(path)  # build() may modify its input lists
        g = vg.VisGraph()
        c0, w0 = time.process_time(), time.perf_counter()
        g.build(polygons, workers=1, status=False)
        wall.append((time.perf_counter() - w0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
        count = len(g.visgraph.get_edges())
        if edges is not None and edges != count:
            raise SystemExit(f"{path}: pyvisgraph gave {edges} then {count} edges")
        edges = count
        del g
    return statistics.median(cpu), statistics.median(wall), edges


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "n/a"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exporter", required=True, help="the pyvisgraph_export binary")
    ap.add_argument("--out", required=True, help="folder for the JSON inputs")
    ap.add_argument("--families", default="convex,star")
    ap.add_argument("--sizes", default="100,300,1000,2000")
    ap.add_argument("--rust-reps", type=int, default=11)
    ap.add_argument(
        "--py-reps",
        type=int,
        default=0,
        help="pyvisgraph builds per input (0: 3 below 500 vertices, else 1)",
    )
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    print(
        f"pyvisgraph {importlib.metadata.version('pyvisgraph')} on "
        f"Python {platform.python_version()}; load average at start {loadavg()}; "
        f"{os.cpu_count()} CPUs"
    )
    rows = []
    for family in args.families.split(","):
        for size in args.sizes.split(","):
            ours = subprocess.run(
                [
                    args.exporter,
                    "--out", args.out,
                    "--families", family,
                    "--sizes", size,
                    "--reps", str(args.rust_reps),
                    "--seed", str(args.seed),
                ],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            r = json.loads(ours.strip().splitlines()[-1])
            reps = args.py_reps or (3 if r["vertices"] < 500 else 1)
            print(f"{r['name']}: {r['vertices']} vertices, pyvisgraph × {reps} "
                  f"(load {loadavg()})", file=sys.stderr, flush=True)
            py_cpu, py_wall, py_edges = time_pyvisgraph(r["file"], reps)
            r.update(py_cpu_ms=py_cpu, py_wall_ms=py_wall, py_edges=py_edges, py_reps=reps)
            rows.append(r)
            print(f"  pyvisgraph {py_cpu / 1e3:.1f} s CPU, ours full "
                  f"{r['full_cpu_ms']:.1f} ms, reduced {r['reduced_cpu_ms']:.1f} ms",
                  file=sys.stderr, flush=True)

    print()
    print("Build times: median CPU ms (wall ms in brackets); ratios are pyvisgraph / ours, CPU.")
    print()
    print("| input | polygons | vertices | pyvisgraph `VisGraph.build` (1 worker) | "
          "ours: full graph | ours: reduced graph (default) | "
          "speed-up vs full | speed-up vs reduced | "
          "ours by the sweep: full / reduced | samples (py / ours) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['name']} | {r['polygons']} | {r['vertices']} | "
              f"{r['py_cpu_ms']:.0f} ({r['py_wall_ms']:.0f}) | "
              f"{r['full_cpu_ms']:.2f} ({r['full_wall_ms']:.2f}) | "
              f"{r['reduced_cpu_ms']:.2f} ({r['reduced_wall_ms']:.2f}) | "
              f"{r['py_cpu_ms'] / r['full_cpu_ms']:.0f}× | "
              f"{r['py_cpu_ms'] / r['reduced_cpu_ms']:.0f}× | "
              f"{r['full_sweep_cpu_ms']:.2f} / {r['reduced_sweep_cpu_ms']:.2f} | "
              f"{r['py_reps']} / {r['reps']} |")
    print()
    print("Edge counts: pyvisgraph's graph against our full graph's edges between "
          "obstacle vertices (and our reduced graph for scale).")
    print()
    print("| input | pyvisgraph edges | our full graph: edges between obstacle vertices | "
          "agree | our full graph: all edges (with the 4 boundary corners) | "
          "our reduced graph: nodes / edges |")
    print("| --- | ---: | ---: | --- | ---: | ---: |")
    agree = 0
    for r in rows:
        same = r["py_edges"] == r["full_edges_between_obstacles"]
        agree += same
        diff = r["full_edges_between_obstacles"] - r["py_edges"]
        print(f"| {r['name']} | {r['py_edges']} | {r['full_edges_between_obstacles']} | "
              f"{'yes' if same else f'no ({diff:+d})'} | {r['full_edges']} | "
              f"{r['reduced_nodes']} / {r['reduced_edges']} |")
    print()
    print(f"edge counts agree on {agree} of {len(rows)} inputs")
    worst_full = min(r["py_cpu_ms"] / r["full_cpu_ms"] for r in rows)
    worst_reduced = min(r["py_cpu_ms"] / r["reduced_cpu_ms"] for r in rows)
    print(f"smallest speed-up: {worst_full:.0f}× (full graph), {worst_reduced:.0f}× "
          f"(reduced graph); target 500×: "
          f"{'met' if worst_full >= 500 else 'not met'} for the full graph, "
          f"{'met' if worst_reduced >= 500 else 'not met'} for the reduced graph")
    print(f"load average at end: {loadavg()}")
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
