#!/usr/bin/env bash
# Builds the Python package (crates/ferrobody-py) into a virtual environment and runs its
# pytest suite. Needs python3 (3.9 or newer) with venv and pip, and PyPI for maturin, numpy,
# pytest, pandas, matplotlib and ray. The environment is kept in target/py-venv (PYTHON_VENV overrides).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${PYTHON_VENV:-target/py-venv}"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "maturin>=1.7,<2" "numpy>=1.21" "pytest>=7" pandas matplotlib "ray>=2.9"
# Release build, as users get it (`pip install ./crates/ferrobody-py` builds the same wheel).
VIRTUAL_ENV="$(cd "$venv" && pwd)" "$venv/bin/maturin" develop --quiet \
  -m crates/ferrobody-py/Cargo.toml
"$venv/bin/python" -m pytest -q crates/ferrobody-py/tests
