#!/usr/bin/env bash
# Runs `ferrobody check` on every .osim file of the given checkouts (opensim-org/opensim-models,
# opensim-org/opensim-core, ...) and prints the files it refuses, with the one-line error.
# The summary line counts files loaded and refused.
#
# Usage: bash scripts/opensim/check_all_models.sh CHECKOUT [CHECKOUT ...]
# Needs a release build (cargo build --release -p ferrobody-cli).
set -uo pipefail
FB="$(cd "$(dirname "$0")/../.." && pwd)/target/release/ferrobody"
loaded=0; refused=0
while IFS= read -r -d '' f; do
  if out=$(timeout 60 "$FB" check "$f" 2>&1); then
    loaded=$((loaded + 1))
  else
    refused=$((refused + 1))
    echo "$(echo "$out" | grep -v '^warning' | head -1)"
  fi
done < <(find "$@" -name '*.osim' -size +0 -print0 | sort -z)
echo "loaded $loaded, refused $refused"
