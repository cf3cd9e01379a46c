#!/usr/bin/env bash
# Device call 10 (session 23): torch.compile's per-head layouts in our template -- head_dim 128 on
# 16 lanes x 8 rows a thread (64 threads, XBLOCK 32 on 2 warps), head_dim 256 on 32 lanes x 4 rows
# in 32-thread blocks (XBLOCK 4 on 1 warp) -- against the defaults. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s23call10.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
{
for t in 65536 221184 262144 1048576; do
  timeout 40 build-gpu/normjit bench --op rmsnorm --tokens $t --hidden 128 --reps 60 \
    --compare "default;tpr=16,rpb=4,rpt=8;tpr=16,rpb=4,rpt=4;tpr=16,rpb=8,rpt=8;default;tpr=16,rpb=4,rpt=8" 2>&1 | tail -6
done
for t in 32768 131072; do
  timeout 40 build-gpu/normjit bench --op rmsnorm --tokens $t --hidden 256 --reps 60 \
    --compare "default;tpr=32,rpb=1,rpt=4;tpr=32,rpb=2,rpt=4;tpr=32,rpb=4,rpt=2;default;tpr=32,rpb=1,rpt=4" 2>&1 | tail -6
done
timeout 40 build-gpu/normjit bench --op rmsnorm --tokens 131072,524288 --hidden 64 --reps 60 \
  --compare "default;tpr=8,rpb=8,rpt=8;tpr=8,rpb=4,rpt=8;default" 2>&1 | grep -v "^device\|^op"
} > "$R/compile-layouts.txt"
echo "done at $(( $(date +%s) - start )) s"; cat "$R/compile-layouts.txt"
