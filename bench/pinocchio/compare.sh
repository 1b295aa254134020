#!/usr/bin/env bash
# ABA per robot, ferrobody against Pinocchio's C++, alternated: ROUNDS rounds, each running
# both programs on every robot; prints the median over rounds of each program's median (ns per
# forward-dynamics call) and the ratio. See bench/pinocchio/README.md for the set-up.
#   bash bench/pinocchio/compare.sh [ROUNDS] [CALLS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-5}"
calls="${2:-20000}"
ours=target/release/examples/urdf_aba
theirs="${ABA_PINOCCHIO:-/tmp/aba_pinocchio}"
models="${PIN_MODELS:-/tmp/pinmodels}"
declare -A a b
for r in $(seq "$rounds"); do
  for robot in panda ur5 solo12 anymal talos_reduced g1 human; do
    floating=1
    case $robot in panda | ur5) floating=0 ;; esac
    a[$robot]+="$("$ours" "testdata/urdf/$robot.urdf" "$floating" "$calls") "
    b[$robot]+="$("$theirs" "$models/$robot.bin" "$calls") "
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
printf "| robot | ferrobody (ns) | Pinocchio C++ (ns) | Pinocchio / ferrobody |\n|---|---:|---:|---:|\n"
for robot in panda ur5 solo12 anymal talos_reduced g1 human; do
  x=$(echo "${a[$robot]}" | median)
  y=$(echo "${b[$robot]}" | median)
  printf "| %s | %s | %s | %.2f |\n" "$robot" "$x" "$y" "$(echo "$y / $x" | bc -l)"
done
