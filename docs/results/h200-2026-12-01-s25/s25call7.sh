#!/usr/bin/env bash
# Device call 7 (session 25): measured only, at the final tree -- the fused add's rows of 257-511
# vectors on 64 threads, two rows a block, held (call 4's sweep first at 8192 x 2560), forced in
# full this time. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s25call7.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 80 build-gpu/normjit bench --op fused_add_rmsnorm --tokens 2048,8192,32768 --hidden 2560,3072,3584 --reps 20 \
  --compare "default;tpr=64,rpb=2,residency=0,loads=0,stores=0,minb=0;default" > "$R/t64-held-call7.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"
grep -v "^device\|^op" "$R/t64-held-call7.txt" | awk '{print $3,$4,$5,$6,$(NF-3)}'
