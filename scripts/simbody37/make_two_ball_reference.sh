#!/usr/bin/env bash
# Builds scripts/simbody37/two_ball_reference.cpp against Debian's Simbody 3.7 and writes
# testdata/simbody37/two_balls_one_leaving.txt (issue 41). Needs `apt-get install
# libsimbody-dev` (not CI). No -DNDEBUG: Debian's library was built without it (notes §9).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
exe="$(mktemp -d)/two_ball_reference"
g++ -O2 -std=c++17 -Wno-deprecated-declarations -I/usr/include/simbody "$here/two_ball_reference.cpp" \
    -o "$exe" -lSimTKsimbody -lSimTKmath -lSimTKcommon
"$exe" > "$root/testdata/simbody37/two_balls_one_leaving.txt"
echo "wrote testdata/simbody37/two_balls_one_leaving.txt" >&2
