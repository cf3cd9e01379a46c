#!/usr/bin/env bash
# Device call 4 (session 24): why Liger leads the fused add at 8192-32768 rows of 5120 and 5376
# (models-call3.txt): every valid config of those shapes (--sweep), then candidates interleaved.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s24call4.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
timeout 150 $nj bench --op fused_add_rmsnorm --tokens 32768 --hidden 5120 --reps 15 --sweep > "$R/sweep-5120.txt" 2>&1
echo "sweep rc=$? at $(( $(date +%s) - start )) s"; sort -t' ' -k1 "$R/sweep-5120.txt" | awk 'NR>1' | sort -k6 -n | head -25
timeout 120 $nj bench --op gemma_fused_add_rmsnorm --tokens 8192 --hidden 5376 --reps 20 --sweep > "$R/sweep-5376.txt" 2>&1
echo "sweep rc=$? at $(( $(date +%s) - start )) s"; awk 'NR>1' "$R/sweep-5376.txt" | sort -k6 -n | head -15
