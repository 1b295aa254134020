#!/usr/bin/env bash
# The system libraries the workspace links, installed from Debian's packages where missing:
# IPOPT for ferrobody-optimize (the vendored ipopt-sys links the system's libipopt: pkg-config
# finds it, the C++ compiler builds the crate's C wrapper; vendor/README.md). ARCHITECTURE.md,
# "Optimal control", says why the system's IPOPT. Run by scripts/test.sh, scripts/demo.sh and CI.
set -euo pipefail
need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists ipopt 2>/dev/null || need+=(coinor-libipopt-dev)
command -v c++ >/dev/null 2>&1 || need+=(g++)
# OpenBLAS (single-threaded) as the system BLAS: IPOPT's MUMPS spends most of a large
# solve in dgemm, 1.8× faster than with the reference BLAS (docs/performance.md).
compgen -G "/usr/lib/*/openblas-serial/libblas.so*" >/dev/null || need+=(libopenblas0-serial)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
echo "installing system packages: ${need[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
