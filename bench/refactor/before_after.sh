#!/usr/bin/env bash
# Two builds of ferrobody, alternated on the same work: contact scenes and OpenSim models
# (`ferrobody bench`, stepping only) and the URDF robots' rigid-body algorithms
# (`crates/ferrobody/examples/urdf_dynamics.rs`). Each round runs A then B on one item; prints
# each build's median over the rounds and the ratio B/A. For changes that must not change speed
# (a refactor): ratios within the host's noise (a few %) are "unchanged".
#
# Usage: bash bench/refactor/before_after.sh DIR_A DIR_B [ROUNDS]
#   DIR_A, DIR_B: each holds `ferrobody` and `urdf_dynamics` release binaries, e.g. built by
#   `cargo build --release -p ferrobody-cli -p ferrobody --example urdf_dynamics` in two
#   checkouts and copied from target/release/ and target/release/examples/.
set -euo pipefail
cd "$(dirname "$0")/../.."
A=$1; B=$2; ROUNDS=${3:-5}
median() { python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
bench_ms() { "$1/ferrobody" bench "${@:2}" --runs 3 | sed 's/.*"wall_median_s":\([^,]*\).*/\1/' | python3 -c 'print(float(input())*1e3)'; }
printf '%-44s %12s %12s %7s\n' item A B B/A
for spec in ${SCENES:-s1_hc_ball s2_ccs_ball s3_smooth_ball s6_chain_contact s7_many_balls_n100 egg_on_ball box_mesh_floor block_exponential_springs u4_two_spheres s5_sphere_on_sphere_rolling}; do
  a=(); b=()
  for _ in $(seq "$ROUNDS"); do
    a+=("$(bench_ms "$A" "examples/scenes/$spec.toml")")
    b+=("$(bench_ms "$B" "examples/scenes/$spec.toml")")
  done
  ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
  printf '%-44s %12.3f %12.3f %7.3f\n' "scene $spec (ms)" "$ma" "$mb" "$(python3 -c "print($mb/$ma)")"
done
for spec in ${MODELS:-ball_smooth:2 leg_hc:1 joints_hc:1 custom_joints:1 egg_hc:1.5 box_mesh_ef:1}; do
  name=${spec%%:*}; T=${spec##*:}; file=testdata/opensim/osim_$name.osim
  a=(); b=()
  for _ in $(seq "$ROUNDS"); do
    a+=("$(bench_ms "$A" "$file" --duration "$T" --accuracy 1e-6)")
    b+=("$(bench_ms "$B" "$file" --duration "$T" --accuracy 1e-6)")
  done
  ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
  printf '%-44s %12.3f %12.3f %7.3f\n' "osim $name 1e-6 (ms)" "$ma" "$mb" "$(python3 -c "print($mb/$ma)")"
done
for robot in ${ROBOTS:-panda:0 solo12:1 talos_reduced:1}; do
  name=${robot%%:*}; fl=${robot##*:}
  for alg in aba rnea crba aba-derivatives; do
    a=(); b=()
    for _ in $(seq "$ROUNDS"); do
      a+=("$("$A/urdf_dynamics" "$alg" "testdata/urdf/$name.urdf" "$fl" 2000 | grep -oE '[0-9.]+' | head -1)")
      b+=("$("$B/urdf_dynamics" "$alg" "testdata/urdf/$name.urdf" "$fl" 2000 | grep -oE '[0-9.]+' | head -1)")
    done
    ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
    printf '%-44s %12.1f %12.1f %7.3f\n' "urdf $name $alg (ns)" "$ma" "$mb" "$(python3 -c "print($mb/$ma)")"
  done
done
