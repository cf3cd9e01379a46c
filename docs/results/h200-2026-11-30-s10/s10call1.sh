#!/usr/bin/env bash
# Device call 1 (session 10): residency 4 (resident staged blocks looping over rows): GPU test
# [smem] (3 and 4), then residency 4 against the staged defaults at wide rows, two sweeps, and
# forced residency 4 at the bulk shapes where staging lost.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s10call1.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli test_gpu || exit 1
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
timeout 200 build-gpu/tests/gpu/test_gpu "[smem]" > "$R/test-smem.txt" 2>&1
echo "smem test rc=$? at $(( $(date +%s) - start )) s"; tail -25 "$R/test-smem.txt"
B() { timeout "$1" stdbuf -oL $nj bench "${@:2}" 2>&1 | grep -E "^(rmsnorm|fused|best|device)|rror"; }
{
echo "== defaults (residency 3)"
B 60 --op rmsnorm,fused_add_rmsnorm --tokens 1024,4096 --hidden 65536,131072,262144 --reps 20
echo "== residency 4, the defaults' other fields"
B 60 --op rmsnorm,fused_add_rmsnorm --tokens 1024,4096 --hidden 65536,131072,262144 --reps 20 --config residency=4
} > "$R/wide-loop-ab.txt" 2>&1
echo "ab done at $(( $(date +%s) - start )) s"; cat "$R/wide-loop-ab.txt"
{
echo "== defaults"
B 40 --op rmsnorm --tokens 512,8192,32768 --hidden 16384 --reps 30
B 40 --op rmsnorm --tokens 8192,32768 --hidden 8192 --reps 30
B 40 --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 32768 --reps 30
echo "== residency 4 forced"
B 40 --op rmsnorm --tokens 512,8192,32768 --hidden 16384 --reps 30 --config residency=4,tpr=256,cluster=1
B 40 --op rmsnorm --tokens 512,8192,32768 --hidden 16384 --reps 30 --config residency=4,tpr=512,cluster=1
B 40 --op rmsnorm --tokens 8192,32768 --hidden 8192 --reps 30 --config residency=4,tpr=256,cluster=1
B 40 --op rmsnorm --tokens 8192,32768 --hidden 8192 --reps 30 --config residency=4,tpr=128,cluster=1
B 40 --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 32768 --reps 30 --config residency=4,tpr=512,cluster=1
B 40 --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 32768 --reps 30 --config residency=4,tpr=256,cluster=2
} > "$R/bulk-loop.txt" 2>&1
echo "bulk done at $(( $(date +%s) - start )) s"; cat "$R/bulk-loop.txt"
{
for spec in rmsnorm:65536 fused_add_rmsnorm:262144 rmsnorm:262144; do
  echo "== sweep residency 4 ${spec%%:*} 1024 x ${spec##*:}"
  B 60 --op ${spec%%:*} --tokens 1024 --hidden ${spec##*:} --reps 20 --sweep --config residency=4
done
} > "$R/wide-loop-sweep.txt" 2>&1
echo "sweeps done at $(( $(date +%s) - start )) s"; cat "$R/wide-loop-sweep.txt"
