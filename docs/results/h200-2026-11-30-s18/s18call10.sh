#!/usr/bin/env bash
# Device call 10 (session 18, at 3d72a20: the power-of-two mean as a multiply): the GPU suite, then
# the side-by-side table and its targets, the 3-D and gemma tables as time allows.
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s18call10.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 300 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; exit 1; }
grep -E "128 x (2048|4096)|32 x 8192|overhead" "$R/latency.txt"
left=$(( 560 - ($(date +%s) - start) ))
echo "peers with ${left} s left"
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
python3 scripts/peers/targets.py "$R/peers-table.csv" | head -30
left=$(( 560 - ($(date +%s) - start) ))
if [ "$left" -gt 60 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
  echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
fi
left=$(( 560 - ($(date +%s) - start) ))
if [ "$left" -gt 60 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops gemma_rmsnorm,gemma_fused_add_rmsnorm --tokens 1,128,2048,32768 --hidden 4096,8192 --autotune-min-tokens 100000000 --reps 30 --csv "$R/gemma.csv" > "$R/gemma.txt" 2> "$R/gemma-stderr.txt"
  echo "gemma rc=$? at $(( $(date +%s) - start )) s"; grep "geomean" "$R/gemma.txt"
fi
echo "done at $(( $(date +%s) - start )) s"
