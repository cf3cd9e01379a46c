#!/usr/bin/env bash
# Device call 4 (session 22, ed98092, the final kernels): the side-by-side table and its targets,
# the wide-row table (target 2's second half), the 3-D and gemma tables.
# Carry: build-tmp .devdeps .whl
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s22call4.tgz r' EXIT
REB=0; [ -x build-gpu/normjit ] || REB=1
echo "rebuild=$REB"
REBUILD=$REB timeout 260 bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
python3 scripts/peers/targets.py "$R/peers-table.csv" > "$R/targets.txt" 2>&1; head -30 "$R/targets.txt"
REBUILD=0 timeout 150 bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 1024 \
  --hidden 32768,65536,131072,262144 --reps 20 --autotune-min-tokens 1000000 --csv "$R/wide.csv" > "$R/wide.txt" 2> "$R/wide-stderr.txt"
echo "wide rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/wide.txt" | tail -12
left=$(( 560 - ($(date +%s) - start) ))
if [ "$left" -gt 40 ]; then
  REBUILD=0 timeout $(( left / 2 )) bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
  echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
fi
left=$(( 580 - ($(date +%s) - start) ))
if [ "$left" -gt 30 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops gemma_rmsnorm,gemma_fused_add_rmsnorm --tokens 1,128,2048,32768 --hidden 4096,8192 --autotune-min-tokens 100000000 --reps 30 --csv "$R/gemma.csv" > "$R/gemma.txt" 2> "$R/gemma-stderr.txt"
  echo "gemma rc=$? at $(( $(date +%s) - start )) s"; grep "geomean" "$R/gemma.txt"
fi
echo "done at $(( $(date +%s) - start )) s"
