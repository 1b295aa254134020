#!/usr/bin/env bash
# The whole test suite, as the README gives it and CI runs it: the system libraries
# (scripts/system-deps.sh), the Python environment (scripts/python-env.sh: made first, so
# that the Rust build and maturin's configure pyo3 alike), the Rust workspace, then the
# Python package's pytest suite (scripts/test-python.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
source scripts/python-env.sh
cargo test --workspace
bash scripts/test-python.sh
