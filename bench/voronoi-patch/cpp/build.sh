#!/usr/bin/env bash
# Builds the C++ Boost.Polygon driver used by `bench/voronoi-patch --cpp` (side-by-side
# timing and the differential test). Installs Debian's Boost headers (1.74) when missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -f /usr/include/boost/polygon/voronoi.hpp ]; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get install -y libboost-dev >/dev/null 2>&1 \
        || { $sudo apt-get update >/dev/null && $sudo apt-get install -y libboost-dev >/dev/null; }
fi
mkdir -p "$here/out"
g++ -O2 -std=c++17 -o "$here/out/boost_voronoi" "$here/boost_voronoi.cpp"
echo "$here/out/boost_voronoi"
