#!/usr/bin/env bash
# Device call 6 (session 15): call 5's sweeps put 256 threads ahead of the heuristic's 128 at
# fused add 128 x 2048 (4.74 us) and rmsnorm 128 x 4096 (4.93). Forced A/B, alternated, two
# rounds, isolated; then the decode graphs with tpr=256 forced against the default.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s15call6.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nj=build-gpu/normjit
for i in 1 2; do for t in 128 256; do
  echo "-- tpr=$t round $i"
  timeout 60 $nj bench --reps 60 --op fused_add_rmsnorm,rmsnorm --tokens 1,8,32,128,512,2048 --hidden 2048 --config tpr=$t 2>&1 | grep -E "^(rmsnorm|fused)|rror"
  timeout 60 $nj bench --reps 60 --op rmsnorm --tokens 128,512,2048 --hidden 4096 --config tpr=$t 2>&1 | grep -E "^(rmsnorm|fused)|rror"
done; done > "$R/tpr-ab.txt" 2>&1
echo "ab at $(( $(date +%s) - start )) s"
for c in "" "tpr=256"; do
  left=$(( 250 - ($(date +%s) - start) )); [ $left -gt 20 ] || break
  echo "== latency ${c:-default}" >> "$R/tpr-latency.txt"
  timeout $left $nj bench --latency ${c:+--config $c} >> "$R/tpr-latency.txt" 2>&1
done
echo "done at $(( $(date +%s) - start )) s"
