#!/usr/bin/env bash
# Device call 5 (session 25): the sweep's leads of call 4, interleaved at 3e1dd93 -- rmsnorm rows
# of 1025-2047 vectors on 512 threads with the weight loaded after the reduction (residency 1);
# the fused add's 257-511 on 64 threads, two rows a block. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s25call5.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
timeout 100 $nj bench --op rmsnorm --tokens 512,2048,8192,32768 --hidden 10240,12288,14336 --reps 20 \
  --compare "default;tpr=512,rpb=1,residency=1,loads=0,minb=0,pin_weight=0;tpr=256,rpb=1,residency=1,loads=0,minb=0,pin_weight=0;default" > "$R/lw-rms-call5.txt" 2>&1
echo "lw rc=$? at $(( $(date +%s) - start )) s"
timeout 60 $nj bench --op fused_add_rmsnorm --tokens 512,2048,8192,32768 --hidden 2560,3584 --reps 20 \
  --compare "default;tpr=64,rpb=2;default" > "$R/t64-fused-call5.txt" 2>&1
echo "t64 rc=$? at $(( $(date +%s) - start )) s"
for f in "$R"/*-call5.txt; do echo "== $(basename $f)"; grep -v "^device\|^op" $f | awk '{print $3,$4,$5,$6,$(NF-3)}'; done
