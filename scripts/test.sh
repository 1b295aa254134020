#!/usr/bin/env bash
# The whole test suite, as the README gives it and CI runs it: the Rust workspace, then the
# Python package's pytest suite (scripts/test-python.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
bash scripts/test-python.sh
