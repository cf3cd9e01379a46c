#!/usr/bin/env bash
# Device call 3 (session 15): the final tree (e0a39e3 + docs): GPU suite, the side-by-side table,
# then pin_weight forced off/on at 128-512 rows (where kPinWeightRows sits), alternated.
# Carry: build-tmp .devdeps .whl cache/prewarmed.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s15call3.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 320 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
echo "suite rc=$? at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
grep -E "tests passed|Failed|FAILED" "$R/ctest-gpu.log" | tail -5
left=$(( 480 - ($(date +%s) - start) ))
echo "peers with ${left} s left"
if [ "$left" -gt 170 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
    --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
  echo "peers rc=$? at $(( $(date +%s) - start )) s"
  python3 scripts/peers/targets.py "$R/peers-table.csv" | head -40
fi
nj=build-gpu/normjit
for i in 1 2; do for pw in 0 1; do
  left=$(( 575 - ($(date +%s) - start) )); [ $left -gt 25 ] || break 2
  echo "-- pin_weight=$pw round $i" >> "$R/pin-rows.txt"
  timeout $left $nj bench --reps 40 --op rmsnorm,fused_add_rmsnorm --tokens 128,256,384 --hidden 2048,4096,8192 \
    --config pin_weight=$pw 2>&1 | grep -E "^(rmsnorm|fused)|rror" >> "$R/pin-rows.txt"
done; done
echo "done at $(( $(date +%s) - start )) s"
