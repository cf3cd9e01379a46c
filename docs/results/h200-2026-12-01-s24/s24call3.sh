#!/usr/bin/env bash
# Device call 3 (session 24): the GPU suite at 3a3b1cb (occupancy floors the kernels can reach), and
# the side-by-side at the model widths whose fused-add kernels changed (5120, 5376, 7168).
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s24call3.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 360 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
left=$(( 575 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops fused_add_rmsnorm,gemma_fused_add_rmsnorm --tokens 512,2048,8192,32768 \
  --hidden 5120,5376,7168 --autotune-min-tokens 100000000 --reps 30 --csv "$R/models.csv" > "$R/models.txt" 2> "$R/models-stderr.txt"
echo "models rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/models.txt" | tail -30
