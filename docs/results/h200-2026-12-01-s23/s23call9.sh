#!/usr/bin/env bash
# Device call 9 (session 23): the GPU suite with one vector a lane for rows of 16 and 32 vectors
# from kOneVectorLaneRows (heuristics.cpp), the new default against the layouts it replaced, the
# 3-D table. Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s23call9.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 360 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
{
for t in 262144 524288 1048576; do
  timeout 40 build-gpu/normjit bench --op rmsnorm --tokens $t --hidden 128 --reps 60 \
    --compare "default;tpr=8,rpb=8,rpt=4;default" 2>&1 | tail -3
done
for t in 262144 1048576; do
  timeout 40 build-gpu/normjit bench --op rmsnorm --tokens $t --hidden 256 --reps 60 \
    --compare "default;tpr=16,rpb=8,rpt=2;default" 2>&1 | tail -3
done
timeout 40 build-gpu/normjit bench --op rmsnorm --tokens 1048576 --hidden 128 --dtype f16 --reps 60 \
  --compare "default;tpr=8,rpb=8,rpt=4;default" 2>&1 | tail -3
} > "$R/onevec.txt"
echo "onevec at $(( $(date +%s) - start )) s"; cat "$R/onevec.txt"
left=$(( 580 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
  --heads 4608x48x128,8192x32x128,8192x8x128,4096x32x64,2048x16x256,8192x128x128,16384x32x256 \
  --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -10
