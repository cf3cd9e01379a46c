#!/usr/bin/env bash
# Device call 1 (session 24): open lead 5 -- occupancy floors of the wide 16-CTA clusters bounded by
# the CTAs an SM's shared memory holds (new default) against the floor of 8 before and none; the
# fused add 7168's voluntary 40-register spill; the wide-row side-by-side. Carry: build-tmp .devdeps .whl
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s24call1.tgz r' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$R/gpu.txt" 2>&1
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
{
$nj bench --op fused_add_rmsnorm --tokens 1024,4096 --hidden 131072,262144 --reps 30 --compare "default;minb=8;minb=0;default" 2>&1 | tail -n +2
$nj bench --op rmsnorm --tokens 1024,4096 --hidden 262144 --reps 30 --compare "default;minb=8;minb=0;default" 2>&1 | tail -n +3
$nj bench --op fused_add_rmsnorm --dtype f32 --tokens 1024 --hidden 65536,131072 --reps 30 --compare "default;minb=8;minb=0;default" 2>&1 | tail -n +3
$nj bench --op fused_add_rmsnorm --dtype f32 --tokens 1024 --hidden 262144 --reps 20 --compare "default;minb=0;minb=2;default" 2>&1 | tail -n +3
} > "$R/floor-smem.txt"
echo "floors at $(( $(date +%s) - start )) s"; cat "$R/floor-smem.txt"
{
$nj bench --op fused_add_rmsnorm --tokens 8192,32768 --hidden 7168 --reps 40 --compare "default;minb=2;minb=1;default" 2>&1 | tail -n +2
$nj bench --op gemma_fused_add_rmsnorm --tokens 8192,32768 --hidden 5376 --reps 40 --compare "default;minb=2;minb=1;default" 2>&1 | tail -n +3
$nj bench --op rmsnorm --tokens 221184 --hidden 128 --reps 60 --compare "default;tpr=16,rpb=4,rpt=4;default" 2>&1 | tail -n +3
} > "$R/spill7168.txt"
echo "7168 at $(( $(date +%s) - start )) s"; cat "$R/spill7168.txt"
left=$(( 570 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 1024 \
  --hidden 32768,65536,131072,262144 --reps 20 --autotune-min-tokens 1000000 --csv "$R/wide.csv" > "$R/wide.txt" 2> "$R/wide-stderr.txt"
echo "wide rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/wide.txt" | tail -12
