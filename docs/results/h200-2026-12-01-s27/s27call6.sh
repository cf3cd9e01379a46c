#!/usr/bin/env bash
# Device call 6 (session 27, 01b8f2e; kernels as 533c72e): the 64-shape side-by-side table and its
# targets (last run in session 22), the wide rows at 1024 tokens and, as time allows, the 3-D
# table. Carry: build-tmp .devdeps .whl
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s27call6.tgz r' EXIT
REBUILD=1 timeout 300 bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
python3 scripts/peers/targets.py "$R/peers-table.csv" > "$R/targets.txt" 2>&1; head -30 "$R/targets.txt"
left=$(( 480 - ($(date +%s) - start) ))
REBUILD=0 timeout $(( left < 150 ? left : 150 )) bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 1024 \
  --hidden 32768,65536,131072,262144 --reps 20 --autotune-min-tokens 1000000 --csv "$R/wide.csv" > "$R/wide.txt" 2> "$R/wide-stderr.txt"
echo "wide rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/wide.txt" | tail -12
left=$(( 530 - ($(date +%s) - start) ))
if [ "$left" -gt 60 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
  echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
fi
echo "done at $(( $(date +%s) - start )) s"
