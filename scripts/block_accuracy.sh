#!/usr/bin/env bash
# Accuracy of the stiff Hunt-Crossley block (docs/integrators.md, "Implicit"): runs the scene
# with RK-Merson at 1e-9 as the reference, then each METHOD:ACCURACY given (default: rk-merson
# and implicit at 1e-5), and prints the largest distance between the block's origins over the
# report rows. Needs a release build: cargo build --release -p ferrobody-cli.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/ferrobody}
SCENE=examples/scenes/block_hunt_crossley_vt0.001.toml
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$BIN" run "$SCENE" --accuracy 1e-9 --out "$OUT/reference" > /dev/null
for run in "${@:-rk-merson:1e-5 implicit:1e-5}"; do
  for pair in $run; do
    method=${pair%%:*}
    accuracy=${pair##*:}
    "$BIN" run "$SCENE" --integrator "$method" --accuracy "$accuracy" --out "$OUT/$pair" > /dev/null
    python3 - "$OUT/reference/trajectory.csv" "$OUT/$pair/trajectory.csv" "$pair" <<'PY'
import csv, math, sys
def origins(path):
    return [tuple(float(r[f"block.p{a}"]) for a in "xyz") for r in csv.DictReader(open(path))]
ref, run = origins(sys.argv[1]), origins(sys.argv[2])
assert len(ref) == len(run), "different report rows"
gaps = [math.dist(a, b) for a, b in zip(ref, run)]
print(f"{sys.argv[3]}: {100 * max(gaps):.2f} cm largest, {100 * sum(gaps) / len(gaps):.2f} cm mean")
PY
  done
done
