#!/usr/bin/env bash
# The README's demo command: the system libraries (scripts/system-deps.sh), then
# `ferrobody demo` (arguments pass through: `bash scripts/demo.sh --out DIR`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
cargo run --release -- demo "$@"
