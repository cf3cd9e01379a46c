#!/usr/bin/env bash
# Device call 5 (session 23): the GPU suite with head_dim-64 rows four to a thread from 131072
# rows (heuristics.cpp), the library's compare of that choice against the old default and the
# 128-thread block, the 3-D table. Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s23call5.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 330 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
for t in 131072 262144 524288 1048576 131071 32768; do
  timeout 60 build-gpu/normjit bench --op rmsnorm --tokens $t --hidden 64 --reps 60 \
    --compare "default;tpr=4,rpb=32,rpt=1;tpr=8,rpb=16,rpt=4;default" 2>&1 | tail -4
done > "$R/rpt64.txt"
echo "rpt64 at $(( $(date +%s) - start )) s"; cat "$R/rpt64.txt"
timeout 40 build-gpu/normjit bench --op rmsnorm --tokens 131072,524288 --hidden 64 --dtype f16 --reps 60 \
  --compare "default;tpr=4,rpb=32,rpt=1;default" > "$R/rpt64-f16.txt" 2>&1
echo "f16 at $(( $(date +%s) - start )) s"; grep -v "^device\|^op" "$R/rpt64-f16.txt"
left=$(( 570 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
  --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
