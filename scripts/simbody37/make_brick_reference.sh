#!/usr/bin/env bash
# Builds scripts/simbody37/brick_reference.cpp against Debian's Simbody 3.7 and writes
# testdata/simbody37/b1_brick_on_floor.csv. Needs `apt-get install libsimbody-dev` (not CI).
# No -DNDEBUG: Debian's library was built without it (notes §9).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
exe="$(mktemp -d)/brick_reference"
g++ -O2 -std=c++17 -Wno-deprecated-declarations -I/usr/include/simbody "$here/brick_reference.cpp" \
    -o "$exe" -lSimTKsimbody -lSimTKmath -lSimTKcommon
"$exe" > "$root/testdata/simbody37/b1_brick_on_floor.csv"
echo "wrote testdata/simbody37/b1_brick_on_floor.csv" >&2
