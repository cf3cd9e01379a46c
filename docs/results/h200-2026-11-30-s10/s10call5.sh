#!/usr/bin/env bash
# Device call 5 (session 10): the staged fused add's residual in the first pass (stores 1):
# GPU test [smem], then stores 0 / 1 at the staged defaults and sweeps at 1024 x 32768 and the
# fused add's bulk shapes.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s10call5.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli test_gpu || exit 1
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
timeout 200 build-gpu/tests/gpu/test_gpu "[smem]" > "$R/test-smem.txt" 2>&1
echo "smem test rc=$? at $(( $(date +%s) - start )) s"; tail -5 "$R/test-smem.txt"
B() { timeout "$1" stdbuf -oL $nj bench "${@:2}" 2>&1 | grep -E "^(rmsnorm|fused|best|device)|rror"; }
{
echo "== defaults (stores 0)"
B 60 --op fused_add_rmsnorm --tokens 1024,4096 --hidden 65536,131072,262144 --reps 20
echo "== stores 1 (residual in the first pass)"
B 60 --op fused_add_rmsnorm --tokens 1024,4096 --hidden 65536,131072,262144 --reps 20 --config stores=1
echo "== defaults again"
B 60 --op fused_add_rmsnorm --tokens 1024 --hidden 65536,131072,262144 --reps 20
} > "$R/early-residual-ab.txt" 2>&1
echo "ab done at $(( $(date +%s) - start )) s"; cat "$R/early-residual-ab.txt"
{
echo "== sweep staged fused 1024 x 32768"
B 60 --op fused_add_rmsnorm --tokens 1024 --hidden 32768 --reps 20 --sweep --config residency=3
echo "== defaults"
B 60 --op fused_add_rmsnorm --tokens 2048,8192,32768 --hidden 16384 --reps 20
B 60 --op fused_add_rmsnorm --tokens 8192,32768 --hidden 8192 --reps 20
echo "== staged stores 1"
B 60 --op fused_add_rmsnorm --tokens 2048,8192,32768 --hidden 16384 --reps 20 --config residency=3,tpr=512,cluster=1,stores=1
B 60 --op fused_add_rmsnorm --tokens 2048,8192,32768 --hidden 16384 --reps 20 --config residency=3,tpr=256,cluster=1,stores=1
B 60 --op fused_add_rmsnorm --tokens 8192,32768 --hidden 8192 --reps 20 --config residency=3,tpr=256,cluster=1,stores=1
B 60 --op fused_add_rmsnorm --tokens 8192,32768 --hidden 8192 --reps 20 --config residency=3,tpr=256,cluster=1,stores=1,keep_out=1
} > "$R/early-residual-bulk.txt" 2>&1
echo "bulk done at $(( $(date +%s) - start )) s"; cat "$R/early-residual-bulk.txt"
