#!/usr/bin/env bash
# Device call 11 (session 17, at 6560239, the final kernels): the GPU suite, then (if it passed)
# the side-by-side table and its targets. Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s17call11.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 330 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
grep -E "tests passed|Failed|FAILED" "$R/ctest-gpu.log" | tail -8
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -80; exit 1; }
left=$(( 400 - ($(date +%s) - start) ))
echo "peers with ${left} s left"
if [ "$left" -gt 130 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
    --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
  echo "peers rc=$? at $(( $(date +%s) - start )) s"
  tail -4 "$R/peers-table.txt"
  python3 scripts/peers/targets.py "$R/peers-table.csv" | head -40
fi
echo "done at $(( $(date +%s) - start )) s"
