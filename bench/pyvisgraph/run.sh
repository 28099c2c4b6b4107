#!/usr/bin/env bash
# Side-by-side build times of Corridor's visibility graph and pyvisgraph 0.2.1 on the
# same polygons (issue 4). Not part of the tests or CI. Sets itself up on a fresh
# machine: a venv in bench/pyvisgraph/.venv (ignored by git) with pyvisgraph==0.2.1,
# and a release build of the exporter example.
#
#   bench/pyvisgraph/run.sh                                   # convex,star × 100,300,1000,2000
#   bench/pyvisgraph/run.sh --sizes 100,300 --families convex # quicker
#
# Options are passed to compare.py (see `compare.py --help`). CARGO_TARGET_DIR is
# honoured.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
# pyvisgraph 0.2.1 imports tqdm without declaring it as a dependency.
if ! "$venv/bin/python" -c 'import importlib.metadata as m, sys, tqdm; sys.exit(m.version("pyvisgraph") != "0.2.1")' 2>/dev/null; then
    "$venv/bin/pip" install --quiet 'pyvisgraph==0.2.1' tqdm
fi
target="${CARGO_TARGET_DIR:-$root/target}"
(cd "$root" && CARGO_TARGET_DIR="$target" cargo build --quiet --release -p corridor-visgraph --example pyvisgraph_export)
exec "$venv/bin/python" "$here/compare.py" --exporter "$target/release/examples/pyvisgraph_export" --out "$here/out" "$@"
