#!/usr/bin/env bash
# Device call 3 (session 17, at 2a39c72, warm after call 2): confirm the occupancy floors call 2
# found (rmsnorm 16384 re-read at 3 CTAs an SM, rmsnorm 2048 held at 12), two rounds, more row
# counts and f16; the fused add's rows of 2048 vectors against re-read variants. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s17call3.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nj=build-gpu/normjit
C() { $nj bench "$@" | grep -v "^device\|^op "; }
{
for round in 1 2; do
  C --op rmsnorm --hidden 16384 --tokens 8192,12288,16384,24576,32768 --reps 40 --compare "default;minb=3"
  C --op rmsnorm --dtype f16 --hidden 16384 --tokens 8192,32768 --reps 30 --compare "default;minb=3"
  C --op rmsnorm,gemma_rmsnorm --hidden 2048 --tokens 8192,16384,32768 --reps 40 --compare "default;tpr=128,minb=12"
done
} > "$R/floor-compare.txt" 2>&1
echo "floors at $(( $(date +%s) - start )) s"; cat "$R/floor-compare.txt"
C --op fused_add_rmsnorm --hidden 16384 --tokens 8192,32768 --reps 20 --compare "default;tpr=1024,residency=2,loads=3;tpr=512,residency=1,loads=0;tpr=1024,residency=1,loads=1;minb=2" > "$R/fused16384-compare.txt" 2>&1
echo "fused at $(( $(date +%s) - start )) s"; cat "$R/fused16384-compare.txt"
