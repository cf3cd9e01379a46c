#!/usr/bin/env bash
# Device call 5 (session 26): the GPU suite at 11f25a3 (predicated hinted loads, fp32 rules, the
# staged shared-memory opt-in), then the side-by-side at the widths the predicated loads changed.
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s26call5.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 360 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
left=$(( 585 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 512,2048,8192 \
  --hidden 11264,14336,20480,28672 --autotune-min-tokens 100000000 --reps 20 --csv "$R/pred-peers.csv" > "$R/pred-peers.txt" 2> "$R/pred-peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/pred-peers.txt" | grep -v "^|---\|^| shape" | cut -c1-150
