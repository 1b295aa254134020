#!/usr/bin/env bash
# The system libraries the workspace links, installed from Debian's packages where missing:
# IPOPT for ferrobody-optimize (ipopt-sys links the system's libipopt: pkg-config finds it,
# cmake builds the crate's C wrapper, libclang runs bindgen). ARCHITECTURE.md, "Optimal
# control", says why the system's IPOPT. Run by scripts/test.sh, scripts/demo.sh and CI.
set -euo pipefail
need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists ipopt 2>/dev/null || need+=(coinor-libipopt-dev)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
# OpenBLAS (single-threaded) as the system BLAS: IPOPT's MUMPS spends most of a large
# solve in dgemm, 1.8× faster than with the reference BLAS (docs/performance.md).
compgen -G "/usr/lib/*/openblas-serial/libblas.so*" >/dev/null || need+=(libopenblas0-serial)
# libclang itself: libclang-cpp (which some images carry alone) does not serve bindgen.
compgen -G "/usr/lib/llvm-*/lib/libclang.so*" >/dev/null \
  || compgen -G "/usr/lib/*/libclang-[0-9]*.so*" >/dev/null || need+=(libclang-dev)
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
