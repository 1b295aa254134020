# Sourced by scripts/test.sh and scripts/test-python.sh (not run): makes the Python
# environment the package is built and tested in (target/py-venv; PYTHON_VENV overrides,
# PYTHON names the interpreter that makes it) with maturin, numpy, pytest, pandas,
# matplotlib and ray from PyPI, and exports the variables `maturin develop` sets when it
# builds the extension. With them exported before `cargo test --workspace`, pyo3's build
# script sees the same environment in both builds, so pyo3 and the extension are compiled
# once instead of twice (docs/performance.md, "Build and test time").
venv="${PYTHON_VENV:-target/py-venv}"
if [ ! -x "$venv/bin/python" ]; then
  "${PYTHON:-python3}" -m venv "$venv"
fi
# Once per test run: scripts/test.sh sources this, then runs scripts/test-python.sh, which
# sources it again with the variables below inherited.
if [ "${FERROBODY_PYTHON_ENV:-}" != "$(cd "$venv" && pwd)" ]; then
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet "maturin>=1.7,<2" "numpy>=1.21" "pytest>=7" pandas matplotlib "ray>=2.9"
fi
VIRTUAL_ENV="$(cd "$venv" && pwd)"
export VIRTUAL_ENV
export FERROBODY_PYTHON_ENV="$VIRTUAL_ENV"
export PYO3_PYTHON="$VIRTUAL_ENV/bin/python"
export PYTHON_SYS_EXECUTABLE="$PYO3_PYTHON"
export PYO3_BUILD_EXTENSION_MODULE=1
# maturin's interpreter signature: implementation, version and pointer width.
PYO3_ENVIRONMENT_SIGNATURE="$("$PYO3_PYTHON" -c 'import struct, sys
v = sys.version_info
print("%s-%d.%d-%dbit" % (sys.implementation.name, v[0], v[1], 8 * struct.calcsize("P")))')"
export PYO3_ENVIRONMENT_SIGNATURE
