#!/usr/bin/env bash
# Compile simbody_bench against Debian's Simbody 3.7 (apt-get install libsimbody-dev).
# No -DNDEBUG: the Debian library was built without it and the State layout depends on it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/simbody_bench}"
g++ -O2 -std=c++17 -Wno-deprecated-declarations -I/usr/include/simbody "$here/simbody_bench.cpp" -o "$out" \
    -lSimTKsimbody -lSimTKmath -lSimTKcommon
echo "built $out" >&2
