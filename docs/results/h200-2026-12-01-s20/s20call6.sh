#!/usr/bin/env bash
# Device call 6 (session 20, final kernels): the GPU suite, the per-head rows' new default (four
# rows a thread) against the old (two) interleaved, and the 3-D table beside the peers.
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s20call6.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 300 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; exit 1; }
timeout 100 build-gpu/normjit bench --op rmsnorm --tokens 221184,262144,65536,32768 --hidden 128 --reps 50 \
  --compare "default;rpt=2,rpb=16;default;rpt=2,rpb=16" > "$R/rpt4-confirm.txt" 2>&1
echo "compare rc=$?"; grep -v "^#" "$R/rpt4-confirm.txt" | tail -17
left=$(( 540 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
echo "done at $(( $(date +%s) - start )) s"
