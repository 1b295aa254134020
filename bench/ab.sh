#!/bin/bash
# Two ferrobody builds alternated on the .osim models of testdata/opensim/models: per model, 4 rounds
# of `ferrobody bench --runs 5` for each binary one after the other; prints the minima and the
# speed-up. Usage: bash bench/ab.sh BASE_BINARY NEW_BINARY model:T ... (ACC=1e-6 by default).
A=$1; B=$2; shift 2
for spec in "$@"; do n=${spec%%:*}; T=${spec##*:}; f=$(dirname "$0")/../testdata/opensim/models/$n.osim
  [[ $n == */* ]] && f=$(dirname "$0")/../testdata/opensim/$n.osim
  a=(); b=()
  for i in 1 2 3 4; do
    a+=($($A bench $f --duration $T --accuracy ${ACC:-1e-6} --runs 5 | sed 's/.*"wall_min_s":\([^,]*\).*/\1/'))
    b+=($($B bench $f --duration $T --accuracy ${ACC:-1e-6} --runs 5 | sed 's/.*"wall_min_s":\([^,]*\).*/\1/'))
  done
  python3 -c "
import sys; a=[float(x) for x in '${a[*]}'.split()]; b=[float(x) for x in '${b[*]}'.split()]
print(f'$n base {min(a)*1e3:.2f} ms  new {min(b)*1e3:.2f} ms  speedup {min(a)/min(b):.2f}')"
done
