#!/usr/bin/env bash
# Device call 2 (session 24): the 2-CTA declaration of the fused add's rows of 513-1023 vectors on
# 512 threads over dtypes and row counts (new default against none), the re-read cluster without a
# floor, the one-vector-a-lane threshold for per-head rows below 262144, the wide fused add 262144's
# thread count under the shared-memory floor. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s24call2.tgz r' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$R/gpu.txt" 2>&1
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
{
$nj bench --op fused_add_rmsnorm --tokens 128,512,1024,2048,8192 --hidden 7168 --reps 40 --compare "default;minb=0;default;minb=0" 2>&1 | tail -n +2
$nj bench --op fused_add_rmsnorm --tokens 2048,8192 --hidden 5120,6144 --reps 40 --compare "default;minb=0;default;minb=0" 2>&1 | tail -n +3
$nj bench --op gemma_fused_add_rmsnorm --tokens 512,2048 --hidden 5376 --reps 40 --compare "default;minb=0;default;minb=0" 2>&1 | tail -n +3
$nj bench --op fused_add_rmsnorm --dtype f16 --tokens 512,8192,32768 --hidden 7168 --reps 40 --compare "default;minb=0;default;minb=0" 2>&1 | tail -n +3
$nj bench --op fused_add_rmsnorm --dtype f32 --tokens 128,512,8192 --hidden 3072 --reps 40 --compare "default;minb=0;default;minb=0" 2>&1 | tail -n +3
} > "$R/b2-512.txt"
echo "b2 at $(( $(date +%s) - start )) s"; cat "$R/b2-512.txt"
{
for t in 131072 163840 196608 221184; do
$nj bench --op rmsnorm --tokens $t --hidden 128 --reps 60 --compare "default;tpr=16,rpb=4,rpt=4;default;tpr=16,rpb=4,rpt=4" 2>&1 | tail -n +3
done
$nj bench --op rmsnorm --tokens 262144 --hidden 128 --reps 60 --compare "default;tpr=8,rpb=8,rpt=4;default;tpr=8,rpb=8,rpt=4" 2>&1 | tail -n +3
for t in 65536 131072 196608; do
$nj bench --op rmsnorm --tokens $t --hidden 256 --reps 60 --compare "default;tpr=32,rpb=4,rpt=2;default;tpr=32,rpb=4,rpt=2" 2>&1 | tail -n +3
done
} > "$R/onevec-threshold.txt"
echo "onevec at $(( $(date +%s) - start )) s"; cat "$R/onevec-threshold.txt"
{
$nj bench --op fused_add_rmsnorm --dtype f32 --tokens 1024 --hidden 262144 --reps 20 --compare "default;minb=4;default;minb=4" 2>&1 | tail -n +2
$nj bench --op fused_add_rmsnorm --tokens 1024 --hidden 262144 --reps 30 --compare "default;tpr=256;tpr=256,minb=2;loads=0;default" 2>&1 | tail -n +3
} > "$R/wide262144.txt"
echo "wide at $(( $(date +%s) - start )) s"; cat "$R/wide262144.txt"
