#!/usr/bin/env bash
# Builds scripts/simbody37/multi_ball_reference.cpp against Debian's Simbody 3.7 and writes
# testdata/simbody37/multi_<scene>.csv for each scene, and Simbody's own one-ulp spread of each
# (ball 2's initial spin about y moved by +1 and −1 ulp) to
# testdata/simbody37/multi_<scene>_ulp.csv and multi_<scene>_ulp_minus.csv (issue 41).
# Needs `apt-get install libsimbody-dev` (not CI). No -DNDEBUG: Debian's library was built
# without it (notes §9).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
exe="$(mktemp -d)/multi_ball_reference"
g++ -O2 -std=c++17 -Wno-deprecated-declarations -I/usr/include/simbody "$here/multi_ball_reference.cpp" \
    -o "$exe" -lSimTKsimbody -lSimTKmath -lSimTKcommon
for scene in bounce_ccs bounce_hc unequal_ccs unequal_hc collide_ccs collide_hc; do
  "$exe" "$scene" > "$root/testdata/simbody37/multi_$scene.csv"
  "$exe" "$scene" 1 > "$root/testdata/simbody37/multi_${scene}_ulp.csv"
  "$exe" "$scene" -1 > "$root/testdata/simbody37/multi_${scene}_ulp_minus.csv"
  echo "wrote testdata/simbody37/multi_$scene.csv, multi_${scene}_ulp.csv and _ulp_minus.csv" >&2
done
