#!/usr/bin/env bash
# Fills fuzz/corpus/TARGET/ with the seed inputs: the example scenes for scene_toml, the
# OpenSim test models for osim, the URDF robots for urdf. libFuzzer adds what it finds to the
# same folders.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p fuzz/corpus/scene_toml fuzz/corpus/osim fuzz/corpus/urdf
# Every example scene but the 230 kB s7 N = 1000 (mutating it is slow; N = 100 covers it).
find examples/scenes -name "*.toml" ! -name "s7_many_balls_n1000.toml" -exec cp {} fuzz/corpus/scene_toml/ \;
cp testdata/opensim/*.osim fuzz/corpus/osim/
cp testdata/urdf/*.urdf fuzz/corpus/urdf/
