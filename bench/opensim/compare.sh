#!/usr/bin/env bash
# ferrobody against OpenSim 4.6 on the .osim models of testdata/opensim/, alternated: each
# round times `ferrobody bench` and OpenSim's Manager.integrate(T) (bench/opensim/
# time_opensim.py) on the same file at the same accuracy, one after the other. Prints each
# program's median over the rounds' medians and the ratio.
#
# Usage: PYTHON=/path/to/python-with-opensim bash bench/opensim/compare.sh [ROUNDS] [ACCURACY]
# Needs `pip install opensim` for PYTHON and a release build (cargo build --release; FERROBODY=
# names another binary).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-5}
ACC=${2:-1e-6}
PY=${PYTHON:-python3}
FB=${FERROBODY:-target/release/ferrobody}
printf '%-16s %12s %12s %8s\n' model ferrobody_ms opensim_ms ratio
for spec in ${MODELS:-ball_smooth:2 leg_hc:1 joints_hc:1 custom_joints:1 egg_hc:1.5 box_mesh_ef:1}; do
  name=${spec%%:*}; T=${spec##*:}; file=testdata/opensim/osim_$name.osim
  # A name with a folder (muscles/mus_pendulum_wrap) is a path under testdata/opensim/.
  if [[ $name == */* ]]; then file=testdata/opensim/$name.osim; fi
  fb=(); os=()
  for _ in $(seq "$ROUNDS"); do
    fb+=("$($FB bench "$file" --duration "$T" --accuracy "$ACC" --runs 5 | sed 's/.*"wall_median_s":\([^,]*\).*/\1/')")
    os+=("$($PY bench/opensim/time_opensim.py "$file" "$T" "$ACC" 5 | sed 's/.*"wall_median_s": \([^,]*\).*/\1/')")
  done
  python3 - "$name" "${fb[*]}" "${os[*]}" <<'PY'
import statistics, sys
name, fb, os_ = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
f, o = statistics.median(fb), statistics.median(os_)
print(f"{name:<16} {f*1e3:12.3f} {o*1e3:12.3f} {o/f:8.1f}")
PY
done
