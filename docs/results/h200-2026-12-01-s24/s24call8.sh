#!/usr/bin/env bash
# Device call 8 (session 24): open lead 6, measured only -- every valid config at the fused add
# 32768 x 2560 (6-7 % behind Liger) and rmsnorm 32768 x 7168 (3.3 % behind torch.compile).
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s24call8.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
timeout 70 $nj bench --op fused_add_rmsnorm --tokens 32768 --hidden 2560 --reps 15 --sweep > "$R/sweep-2560-call8.txt" 2>&1
echo "sweep rc=$? at $(( $(date +%s) - start )) s"; grep best: "$R/sweep-2560-call8.txt"; awk 'NR>1 && $1!="best:"' "$R/sweep-2560-call8.txt" | sort -k6 -n | head -8
timeout 70 $nj bench --op rmsnorm --tokens 32768 --hidden 7168 --reps 15 --sweep > "$R/sweep-7168-call8.txt" 2>&1
echo "sweep rc=$? at $(( $(date +%s) - start )) s"; grep best: "$R/sweep-7168-call8.txt"; awk 'NR>1 && $1!="best:"' "$R/sweep-7168-call8.txt" | sort -k6 -n | head -8
