#!/usr/bin/env bash
# Builds the Python package (crates/ferrobody-py) into a virtual environment and runs its
# pytest suite. Needs python3 (3.9 or newer) with venv and pip, and PyPI for maturin, numpy,
# pytest, pandas, matplotlib and ray. The environment is kept in target/py-venv (PYTHON_VENV
# overrides; scripts/python-env.sh makes it).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/python-env.sh
# The dev profile the test command's `cargo test --workspace` built (`pip install
# ./crates/ferrobody-py` builds the release wheel users get).
"$VIRTUAL_ENV/bin/maturin" develop --quiet -m crates/ferrobody-py/Cargo.toml
"$VIRTUAL_ENV/bin/python" -m pytest -q crates/ferrobody-py/tests
