#!/usr/bin/env bash
# Corridor against the original C++ Polyanya (Cui, Harabor, Grastien 2017) on the same 2,990
# Aurora problems (data/polyanya/aurora-euclidean.csv), on aurora.mesh and aurora-merged.mesh,
# radius 0, thread CPU time per query, in one run (issue 24). Rounds alternate the two
# programs on each mesh; each program warms up untimed first. The table gives the median over
# the rounds of each program's p50 and p99, and Corridor / Polyanya.
#   CORRIDOR_PEERS=/path/to/peers bench/polyanya-cpp/run.sh [ROUNDS]
# Polyanya's driver is built with the peer's own build.sh into $TMPDIR (never into the
# repository); Corridor's side is the example `mesh_queries` of corridor-ecm.
set -euo pipefail
if [ -z "${CORRIDOR_PEERS:-}" ] || [ ! -x "$CORRIDOR_PEERS/polyanya/build.sh" ]; then
  echo "set CORRIDOR_PEERS to the peers' folder (it must hold polyanya/build.sh)" >&2
  exit 2
fi
rounds=${1:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
data="$root/data/polyanya"
out=${TMPDIR:-/tmp}/corridor-polyanya-cpp
mkdir -p "$out"
command -v g++ >/dev/null || { apt-get update && apt-get install -y g++; }
command -v jq >/dev/null || { apt-get update && apt-get install -y jq; }
cpp=$("$CORRIDOR_PEERS/polyanya/build.sh" "$out/build" | tail -1)
(cd "$root" && cargo build --release -q -p corridor-ecm --example mesh_queries)
ours="$root/target/release/examples/mesh_queries"
csv="$data/aurora-euclidean.csv"
log="$out/runs.jsonl"
: >"$log"
for r in $(seq 1 "$rounds"); do
  for mesh in aurora aurora-merged; do
    "$cpp" "$data/$mesh.mesh" "$csv" 1 | jq -c --arg m "$mesh" 'select(.rep != null) | {m: $m, impl, cpu_ms, solved, failed, longer, shorter}' >>"$log"
    "$ours" "$data/$mesh.mesh" "$csv" 1 | jq -c --arg m "$mesh" 'select(.rep != null) | {m: $m, impl, cpu_ms, solved, failed, longer, shorter}' >>"$log"
  done
done
echo "Aurora, 2,990 problems, radius 0, thread CPU per query, median over $rounds rounds (load $(cut -d' ' -f1 /proc/loadavg))"
jq -rs '
  def med: sort | .[(length - 1) / 2 | floor];
  group_by(.m)[] | . as $g | $g[0].m as $m
  | [ "cpp-polyanya", "corridor" ] | map(. as $i | $g | map(select(.impl == $i))
      | {impl: $i, p50: (map(.cpu_ms.p50) | med), p99: (map(.cpu_ms.p99) | med),
         solved: .[0].solved, failed: .[0].failed, longer: .[0].longer, shorter: .[0].shorter})
  | . as [$p, $c]
  | "\($m).mesh: polyanya p50 \($p.p50) ms p99 \($p.p99) ms (solved \($p.solved), failed \($p.failed), longer \($p.longer)); corridor p50 \($c.p50) ms p99 \($c.p99) ms (solved \($c.solved), failed \($c.failed), longer \($c.longer), shorter \($c.shorter)); corridor / polyanya p50 \($c.p50 / $p.p50 * 1000 | round / 1000)x p99 \($c.p99 / $p.p99 * 1000 | round / 1000)x"
' "$log"
