#!/usr/bin/env bash
# Side-by-side timing of Debian's Simbody 3.7 and ferrobody on the validation scenes.
# Builds both, then for each scene alternates RUNS single runs of each program (so slow drifts
# of machine load hit both alike), and prints a markdown table of the medians.
#   bash bench/simbody/compare.sh            (RUNS=5 by default; SKIP_CARGO=1 reuses the binary;
#                                             SCENES="id:file ..." picks scenes)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
runs="${RUNS:-5}"
sb=bench/simbody/simbody_bench
fb=target/release/ferrobody

bash bench/simbody/build.sh "$sb"
[ "${SKIP_CARGO:-0}" = 1 ] || cargo build --release

# simbody_bench scene id -> ferrobody scene file
# (SCENES="s6:s6_chain_contact" runs one of them.)
scenes="${SCENES:-s1:s1_hc_ball s2:s2_ccs_ball s3:s3_smooth_ball s6:s6_chain_contact
        s7_n10:s7_many_balls_n10 s7_n100:s7_many_balls_n100 s7_n1000:s7_many_balls_n1000}"

log="$(mktemp)"; trap 'rm -f "$log"' EXIT
for pair in $scenes; do
    id="${pair%%:*}"; file="examples/scenes/${pair#*:}.toml"
    echo "running $id ($runs x 2)" >&2
    for ((i = 0; i < runs; i++)); do
        echo "simbody $id $("$sb" "$id" 1 2>/dev/null)" >>"$log"
        echo "ferrobody $id $("$fb" bench "$file" --runs 1)" >>"$log"
    done
done

# Each log line: "<tool> <id> <json>". Median of the per-run walls; steps from the last run.
python3 - "$log" <<'PY'
import json, statistics, sys
walls, steps, order = {}, {}, []
for line in open(sys.argv[1]):
    tool, sid, js = line.split(" ", 2)
    r = json.loads(js)
    if sid not in order: order.append(sid)
    walls.setdefault((tool, sid), []).append(r["wall_median_s"])
    steps[(tool, sid)] = r["steps_taken"]
print("| scene | Simbody median s | ferrobody median s | speed-up (Simbody / ferrobody) | steps (Simbody / ferrobody) |")
print("|---|---|---|---|---|")
for sid in order:
    s = statistics.median(walls[("simbody", sid)]); f = statistics.median(walls[("ferrobody", sid)])
    print(f"| {sid} | {s:.4f} | {f:.4f} | {s / f:.1f}× | {steps[('simbody', sid)]} / {steps[('ferrobody', sid)]} |")
PY
