#!/usr/bin/env bash
# The README's demo command: the system libraries (scripts/system-deps.sh), then
# `ferrobody demo` (arguments pass through: `bash scripts/demo.sh --out DIR`). The dev profile
# (dependencies optimized, the workspace at opt-level 1; the test command's build): the demo's
# 3 s of simulation take well under a second either way, and the fat-LTO release build would
# add minutes to a first run. Build with `--release` for timings.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
cargo run -- demo "$@"
