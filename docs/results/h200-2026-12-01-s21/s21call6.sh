#!/usr/bin/env bash
# Device call 6 (session 21, at 5881883: the final kernels of call 3, and the peers table's
# per-round ratio with its interval): the side-by-side table (100 samples) and the 3-D table,
# with every shape behind marked beyond noise or within it. Carry: build-tmp .devdeps .whl
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s21call6.tgz r' EXIT
left=$(( 470 - ($(date +%s) - start) ))
timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 100 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
python3 scripts/peers/targets.py "$R/peers-table.csv" | head -30
grep "geomean" "$R/peers-table.txt"
left=$(( 585 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 100 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
python3 scripts/peers/targets.py "$R/3d.csv" | grep -A8 behind
echo "done at $(( $(date +%s) - start )) s"
