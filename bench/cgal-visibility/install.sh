#!/usr/bin/env bash
# Installs what the CGAL visibility harness needs (Debian's libcgal-dev, with Boost, GMP and
# MPFR), only when missing. CGAL is linked by this benchmark only, never by the library.
set -euo pipefail
if [ -f /usr/include/CGAL/Triangular_expansion_visibility_2.h ] && command -v g++ >/dev/null; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
$SUDO apt-get -o DPkg::Lock::Timeout=900 update
$SUDO apt-get -o DPkg::Lock::Timeout=900 install -y g++ libcgal-dev libboost-dev libgmp-dev libmpfr-dev
