#!/usr/bin/env bash
# Device call 3 (session 28): whole sweeps (bench --sweep, which now goes on past a failing config)
# at model widths that are not powers of two: rmsnorm and the fused add, bf16, hidden 3072 (Wan 2.2),
# 5376 (Gemma 3 27B), 7168 (DeepSeek-V3) x 2048 and 16384 rows: is the heuristic's config within
# noise of the best? Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s28call3.tgz r' EXIT
source scripts/gpu_build.sh
gpu_build "" normjit_cli > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
for op in rmsnorm fused_add_rmsnorm; do
  for h in 3072 5376 7168; do
    left=$(( 540 - ($(date +%s) - start) )); [ $left -lt 20 ] && break
    timeout $left build-gpu/normjit bench --op $op --tokens 2048,16384 --hidden $h --reps 20 --sweep > "$R/sweep-$op-$h.txt" 2>&1
    echo "$op $h rc=$? at $(( $(date +%s) - start )) s"; grep "best:\|FAILED" "$R/sweep-$op-$h.txt"
  done
done
