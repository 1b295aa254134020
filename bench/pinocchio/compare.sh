#!/usr/bin/env bash
# Rigid-body algorithms per robot, ferrobody against Pinocchio's C++, alternated: ROUNDS rounds,
# each running both programs on every robot and algorithm (aba, rnea, crba, aba-derivatives);
# prints, per algorithm, the median over rounds of each program's median (ns per call) and the
# ratio. See bench/pinocchio/README.md for the set-up.
#   bash bench/pinocchio/compare.sh [ROUNDS] [CALLS] [ALGORITHMS...]
# aba-derivatives runs CALLS/20 calls per batch (it is 10-1000 times slower).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-5}"
calls="${2:-20000}"
shift $(($# > 2 ? 2 : $#))
algorithms=("$@")
[ ${#algorithms[@]} -gt 0 ] || algorithms=(aba rnea crba aba-derivatives)
ours=target/release/examples/urdf_dynamics
theirs="${DYNAMICS_PINOCCHIO:-/tmp/dynamics_pinocchio}"
models="${PIN_MODELS:-/tmp/pinmodels}"
robots=(panda ur5 solo12 anymal talos_reduced g1 human)
declare -A a b
for r in $(seq "$rounds"); do
  for algorithm in "${algorithms[@]}"; do
    n=$calls
    [ "$algorithm" = aba-derivatives ] && n=$((calls / 20))
    for robot in "${robots[@]}"; do
      floating=1
      case $robot in panda | ur5) floating=0 ;; esac
      a[$algorithm.$robot]+="$("$ours" "$algorithm" "testdata/urdf/$robot.urdf" "$floating" "$n") "
      b[$algorithm.$robot]+="$("$theirs" "$algorithm" "$models/$robot.bin" "$n") "
    done
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for algorithm in "${algorithms[@]}"; do
  printf "\n%s\n\n| robot | ferrobody (ns) | Pinocchio C++ (ns) | Pinocchio / ferrobody |\n|---|---:|---:|---:|\n" "$algorithm"
  for robot in "${robots[@]}"; do
    x=$(echo "${a[$algorithm.$robot]}" | median)
    y=$(echo "${b[$algorithm.$robot]}" | median)
    printf "| %s | %s | %s | %.2f |\n" "$robot" "$x" "$y" "$(echo "$y / $x" | bc -l)"
  done
done
