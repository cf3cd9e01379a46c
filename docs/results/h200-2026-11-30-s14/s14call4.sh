#!/usr/bin/env bash
# Device call 4 (session 14): at e595b59 (1024-thread rows reduce their warp sums by shuffles):
# the GPU suite; wide rows A/B against the previous reduction (prev) and against shuffles from 16
# warps (k16); rmsnorm 32768 re-read with the L1/L2 hints; then the side-by-side table.
# Carry: build-tmp .devdeps .whl cache/prewarmed.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s14call4.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 400 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
echo "suite rc=$? at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
grep -E "tests passed|Failed|FAILED" "$R/ctest-gpu.log" | tail -5
source scripts/gpu_build.sh
gpu_build "" normjit_cli > /dev/null 2>&1 || echo "gpu_build failed"
nj=build-gpu/normjit
{
  echo "== wide rows: reduction A/B"
  timeout 150 python3 scripts/template_ab.py --normjit $nj base prev=build-tmp/tpl14-prev k16=build-tmp/tpl14-k16 base2=base -- \
    --op rmsnorm,fused_add_rmsnorm --reps 20 --tokens 1024 --hidden 32768,65536,131072,262144
  echo "== wide rows: defaults, % of copy"
  timeout 60 $nj bench --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 32768,65536,131072,262144 --reps 20
  echo "== rmsnorm 32768 re-read with hints (default: plain loads)"
  timeout 60 $nj bench --op rmsnorm --tokens 1024,4096 --hidden 32768 --reps 20 --config tpr=1024,residency=2,loads=3
  timeout 60 $nj bench --op rmsnorm --tokens 1024,4096 --hidden 32768 --reps 20
} 2>&1 | tee "$R/wide-ab.txt" | grep -E "^\||%|==" | head -60
left=$(( 570 - ($(date +%s) - start) ))
echo "peers with ${left} s left"
if [ "$left" -gt 170 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
    --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
  echo "peers rc=$? at $(( $(date +%s) - start )) s"
  tail -4 "$R/peers-table.txt"
fi
