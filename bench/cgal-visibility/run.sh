#!/usr/bin/env bash
# Side by side: corridor-ecm's visibility polygons and CGAL's Triangular_expansion_visibility_2
# (exact kernel) on the shared Moving AI maps in data/movingai, on the same walls (the ECM's
# normalized walls) and the same 1,000 random free cell centres, one map after the other
# (ours, then CGAL, in one run). Prints a Markdown table for docs/BENCHMARKS.md.
#
#   bench/cgal-visibility/run.sh [MAPS...]      # default: the seven maps of the table
#   NQ=1000 REPS=3 OUT=/tmp/cgal-visibility bench/cgal-visibility/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${OUT:-/tmp/cgal-visibility}"
nq="${NQ:-1000}"
reps="${REPS:-3}"
mkdir -p "$out"
"$here/install.sh"
if [ ! -x "$out/tev" ] || [ "$here/tev.cpp" -nt "$out/tev" ]; then
  g++ -O2 -std=c++17 -DNDEBUG -o "$out/tev" "$here/tev.cpp" -lgmp -lmpfr
fi
(cd "$root" && cargo build --release -q -p corridor-ecm --example visibility_bench)
bench="$root/target/release/examples/visibility_bench"
maps=("$@")
if [ ${#maps[@]} -eq 0 ]; then
  maps=(arena den312d den520d brc202d 16room_000 Aurora random512-10-0)
fi
echo "| map | points | index median µs | ECM walk median µs | CGAL median µs | index / CGAL | ECM / CGAL | same corner count (index, ECM) | same area 1e-9 (index, ECM) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for name in "${maps[@]}"; do
  map="$root/data/movingai/$name.map"
  [ -f "$map" ] || { echo "no map $map" >&2; exit 1; }
  "$bench" prepare "$map" "$out/$name" "$nq" 27
  "$bench" measure "$map" "$out/$name" "$reps" > "$out/$name.los.txt"
  "$out/tev" "$out/$name.segs" "$out/$name.queries" "$out/$name.cgal.csv" "$reps" 2> "$out/$name.cgal.txt"
  "$bench" compare "$name" "$out/$name"
done
echo
for name in "${maps[@]}"; do
  echo "$name: $(cat "$out/$name.los.txt") $(cat "$out/$name.cgal.txt")"
done
