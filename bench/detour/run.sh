#!/usr/bin/env bash
# Side by side: Recast/Detour and Corridor's layered ECM on the three Recast demo levels
# (data/recast: nav_test, dungeon, undulating), same start/goal pairs, in one run. Detour
# builds one navmesh per agent radius (RecastDemo's default settings) and draws N random
# pairs on it; the layered ECM is built once per level and answers the same pairs (Detour's
# snapped points, placed on the layer whose surface is nearest in height) for every radius.
# Printed per level and radius: who found a path, the ground-plane length ratio (ours over
# Detour's straight path projected on the ground), per-query time medians; and Detour's
# build times per radius (CPU, median of 5, radii interleaved).
# Detour's straight paths are kept ($OUT/LEVEL-R-paths.csv) for the pair-by-pair
# explanation:
#   cargo run --release -p corridor-io --example detour_pairs -- data/recast/LEVEL.obj R \
#       $OUT/LEVEL-R.csv $OUT/LEVEL-R-paths.csv 10 --svg DIR
#
#   CORRIDOR_PEERS=/path/to/peers bench/detour/run.sh [N]     # N pairs per level and radius (200)
#
# Uses the peers' Detour harness (detour/build.sh, detour/detour_bench.cpp); needs g++
# (apt-get install -y g++ is done here when missing).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ -z "${CORRIDOR_PEERS:-}" ] || [ ! -f "$CORRIDOR_PEERS/detour/build.sh" ] ||
    [ ! -d "$CORRIDOR_PEERS/recastnavigation/Detour" ]; then
    echo "error: set CORRIDOR_PEERS to the peers' folder (the one holding detour/ and recastnavigation/)" >&2
    exit 1
fi
command -v g++ >/dev/null || { apt-get update -qq && apt-get install -y -qq g++; }
n=${1:-200}
out=${OUT:-/tmp/corridor-bench-detour}
mkdir -p "$out"
[ -x "$out/build/detour_bench" ] ||
    bash "$CORRIDOR_PEERS/detour/build.sh" "$CORRIDOR_PEERS/recastnavigation" "$out/build" >&2
(cd "$root" && cargo build --release -q -p corridor-io --example detour_side)
ours="$root/target/release/examples/detour_side"
detour="$out/build/detour_bench"
for level in nav_test dungeon undulating; do
    obj="$root/data/recast/$level.obj"
    runs=()
    for r in 0.3 0.6 1.2; do
        "$detour" "$obj" --radius "$r" --random "$n" --seed 1 --reps 20 \
            --csv "$out/$level-$r.csv" \
            --paths "$out/$level-$r-paths.csv" >"$out/$level-$r.log" 2>&1
        runs+=("$r=$out/$level-$r.csv")
    done
    "$ours" "$obj" "${runs[@]}"
    "$detour" "$obj" --radii 0.3,0.6,1.2 --build-reps 5 --build-only 2>&1 |
        grep -i "build" | sed "s/^/level=$level detour: /"
done
