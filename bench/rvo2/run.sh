#!/usr/bin/env bash
# Side by side: RVO2 (C++, OpenMP) and corridor-crowd on RVO2's Circle scenario, same
# parameters (time step 0.25, neighbour distance 15, 10 neighbours, horizons 10, radius 1.5,
# max speed 2, preferred speed 1; N agents on a circle of radius 200 * N / 250), same thread
# count, alternating A and B in one run. corridor-crowd follows ECM routes (route following
# on); RVO2 walks straight at the goals as its example does.
#
#   CORRIDOR_PEERS=/path/to/peers bench/rvo2/run.sh            # the table of docs/BENCHMARKS.md
#   CORRIDOR_PEERS=/path/to/peers bench/rvo2/run.sh distance   # RVO2's closest approach, 250 agents
#   CORRIDOR_PEERS=/path/to/peers bench/rvo2/run.sh callgrind [N] [STEPS]  # instructions per step, 1 thread
#
# Needs g++ with OpenMP (apt-get install -y g++ is done here when missing), and valgrind
# for `callgrind` (installed the same way).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ -z "${CORRIDOR_PEERS:-}" ] || [ ! -d "$CORRIDOR_PEERS/rvo2/src" ]; then
    echo "error: set CORRIDOR_PEERS to the peers' folder (the one holding rvo2/src)" >&2
    exit 1
fi
command -v g++ >/dev/null || { apt-get update -qq && apt-get install -y -qq g++; }
out=${OUT:-/tmp/corridor-bench-rvo2}
mkdir -p "$out"
g++ -O3 -std=c++17 -fopenmp -DNDEBUG -I"$CORRIDOR_PEERS/rvo2/src" \
    "$CORRIDOR_PEERS"/rvo2/src/*.cc "$here/circle.cc" -o "$out/circle"
(cd "$root" && cargo build --release -q -p corridor-crowd --example run)
ours="$root/target/release/examples/run"

if [ "${1:-}" = distance ]; then
    OMP_NUM_THREADS=1 "$out/circle" 250 100000 distance
    "$ours" circle 250 100000 1
    exit 0
fi

if [ "${1:-}" = callgrind ]; then
    # Instructions of steps 2..STEPS+1 (setup and the first step, where we plan, cancel
    # out): a run of STEPS+1 steps minus a run of 1 step, divided by STEPS (default 100).
    command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }
    n=${2:-5000}
    steps=${3:-100}
    count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
        sed -n 's/.*Collected : *//p'; }
    for system in rvo2 corridor-crowd; do
        if [ $system = rvo2 ]; then
            a=$(OMP_NUM_THREADS=1 count "$out/circle" "$n" 1)
            b=$(OMP_NUM_THREADS=1 count "$out/circle" "$n" $((steps + 1)))
        else
            a=$(count "$ours" circle "$n" 0 1); b=$(count "$ours" circle "$n" "$steps" 1)
        fi
        echo "system=$system agents=$n instructions_per_step=$(( (b - a) / steps ))"
    done
    exit 0
fi

# agents, steps (250: to the end; the larger circles: the first steps, where the crowds
# walk towards the centre, since crossing 8 or 80 km takes 16,000 or 160,000 steps).
for case in "250 100000" "5000 1000" "50000 100"; do
    set -- $case
    for threads in 1 2; do
        OMP_NUM_THREADS=$threads "$out/circle" "$1" "$2"
        "$ours" circle "$1" "$2" "$threads"
    done
done
