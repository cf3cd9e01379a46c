#!/usr/bin/env bash
# Device call 4 (session 11): the whole GPU suite with the one-push cluster exchange and the few-row cluster rule, then
# the full side-by-side table (issue 4 target 1 grid).
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
export OUT=$R
timeout 320 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
echo "suite rc=$? at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -20
grep -E "worst|host cost" "$R/gpu-suite.txt"
REBUILD=0 timeout $(( 575 - ($(date +%s) - start) )) bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
tail -4 "$R/peers-table.txt"
cd "$R/.." && tar czf s11call4.tgz r && rm -rf r
