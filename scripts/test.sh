#!/usr/bin/env bash
# The whole test suite, as the README gives it and CI runs it: the system libraries
# (scripts/system-deps.sh), the Rust workspace, then the Python package's pytest suite
# (scripts/test-python.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
cargo test --workspace
bash scripts/test-python.sh
