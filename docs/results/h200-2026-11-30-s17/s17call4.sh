#!/usr/bin/env bash
# Device call 4 (session 17): at the tree this script is committed with: a few compares (fused add
# rows of 2048 vectors at 256-768 rows), then the GPU suite, then (if it passed) the side-by-side
# table and its targets. Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s17call4.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 330 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
grep -E "tests passed|Failed|FAILED" "$R/ctest-gpu.log" | tail -8
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -80; exit 1; }
nj=build-gpu/normjit
$nj bench --op fused_add_rmsnorm --hidden 16384 --tokens 256,384,512,768 --reps 40 --compare "default;tpr=1024,residency=1,loads=0;tpr=1024,residency=0,loads=0;tpr=512,residency=1,loads=0;tpr=512,residency=1,loads=0,minb=2" 2>&1 | grep -v "^device\|^op " > "$R/fused-mid-compare.txt"
echo "compare at $(( $(date +%s) - start )) s"; cat "$R/fused-mid-compare.txt"
left=$(( 585 - ($(date +%s) - start) ))
echo "peers with ${left} s left"
if [ "$left" -gt 170 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
    --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
  echo "peers rc=$? at $(( $(date +%s) - start )) s"
  tail -4 "$R/peers-table.txt"
  python3 scripts/peers/targets.py "$R/peers-table.csv" | head -40
fi
echo "done at $(( $(date +%s) - start )) s"
