#!/usr/bin/env bash
# Device call 3 (session 21, final kernels): the GPU suite, bench --latency with kernel fill and
# each launch's own weight, the side-by-side table and its targets, gemma and the 3-D table.
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s21call3.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 300 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; exit 1; }
run() { name=$1; shift; timeout 40 build-gpu/normjit bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "== $name rc=$? at $(( $(date +%s) - start )) s"; }
run w100 --weights 100
run kfill --fill kernel
L=$R/latency
python3 scripts/latency_compare.py $R/latency.txt $L-w100.txt $L-kfill.txt > "$R/compare-final.txt" 2>&1
cat "$R/compare-final.txt"
grep "overhead" "$R/latency.txt"
left=$(( 560 - ($(date +%s) - start) ))
echo "peers with ${left} s left"
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
python3 scripts/peers/targets.py "$R/peers-table.csv" | head -30
left=$(( 575 - ($(date +%s) - start) ))
if [ "$left" -gt 40 ]; then
  REBUILD=0 timeout $(( left / 2 )) bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
  echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
fi
left=$(( 580 - ($(date +%s) - start) ))
if [ "$left" -gt 30 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops gemma_rmsnorm,gemma_fused_add_rmsnorm --tokens 1,128,2048,32768 --hidden 4096,8192 --autotune-min-tokens 100000000 --reps 30 --csv "$R/gemma.csv" > "$R/gemma.txt" 2> "$R/gemma-stderr.txt"
  echo "gemma rc=$? at $(( $(date +%s) - start )) s"; grep "geomean" "$R/gemma.txt"
fi
echo "done at $(( $(date +%s) - start )) s"
