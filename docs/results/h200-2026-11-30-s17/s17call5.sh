#!/usr/bin/env bash
# Device call 5 (session 17, warm after call 4, same tree): the 3-D table and the gemma table.
# Carry: build-tmp .devdeps .whl
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s17call5.tgz r' EXIT
export OUT=$R
REBUILD=1 timeout 200 bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt"
REBUILD=0 timeout 200 bash scripts/peers_bench.sh --ops gemma_rmsnorm,gemma_fused_add_rmsnorm --tokens 1,128,2048,32768 --hidden 4096,8192 --autotune-min-tokens 100000000 --reps 30 --csv "$R/gemma.csv" > "$R/gemma.txt" 2> "$R/gemma-stderr.txt"
echo "gemma rc=$? at $(( $(date +%s) - start )) s"; grep "geomean" "$R/gemma.txt"
