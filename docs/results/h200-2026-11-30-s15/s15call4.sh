#!/usr/bin/env bash
# Device call 4 (session 15): the final tree's wide rows (target 2's second half) and the gemma and
# per-head table (target 4), as session 14's calls 4 and 6 measured them.
# Carry: build-tmp .devdeps .whl
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s15call4.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli normjit > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nj=build-gpu/normjit
timeout 90 $nj bench --op rmsnorm,fused_add_rmsnorm --tokens 1024,4096 --hidden 32768,65536,131072,262144 --reps 20 > "$R/wide.txt" 2>&1
echo "wide at $(( $(date +%s) - start )) s"; grep -E "^(rmsnorm|fused)" "$R/wide.txt"
left=$(( 380 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d,gemma_fused_add_rmsnorm,gemma_rmsnorm \
  --tokens 1,128,2048,32768 --hidden 4096,8192 --autotune-min-tokens 100000000 --reps 40 --csv "$R/gemma3d.csv" > "$R/gemma3d.txt" 2> "$R/gemma3d-stderr.txt"
echo "gemma3d rc=$? at $(( $(date +%s) - start )) s"
tail -5 "$R/gemma3d.txt"
