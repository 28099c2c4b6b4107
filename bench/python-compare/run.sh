#!/usr/bin/env bash
# Corridor's Python package side by side with extremitypathfinder and pyvisgraph (issue 31):
# the same random polygon scenes and queries at radius 0, in one run. Not part of CI.
# Sets itself up on a fresh machine: a venv in bench/python-compare/.venv (ignored by git)
# with the two packages from the package index, maturin, and Corridor built from
# bindings/python (reusing the workspace's target dir).
#
#   bench/python-compare/run.sh                   # 12 scenes, 200 queries each
#   bench/python-compare/run.sh --scenes 4        # quicker; see compare.py --help
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$here/.venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
# pyvisgraph 0.2.1 imports tqdm without declaring it.
"$venv/bin/python" -m pip install --quiet 'extremitypathfinder==2.7.2' 'pyvisgraph==0.2.1' tqdm numpy 'maturin>=1.7,<2'
export PATH="$venv/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
"$venv/bin/python" -m pip install --quiet --no-build-isolation --force-reinstall --no-deps "$root/bindings/python"
exec "$venv/bin/python" "$here/compare.py" "$@"
