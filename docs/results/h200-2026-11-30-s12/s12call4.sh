#!/usr/bin/env bash
# Device call 4 (session 12): threads per CTA of the staged wide rows (call 3: the fused add at
# 262144 on 16 CTAs ran 580 us on 128 threads, 598 on 256, 660 on 512, default 8 x 512 651):
# is it the cluster size or the thread count? Every staged shape at 1024 rows, 128-256 threads,
# default cluster and 16. Carry: build-tmp .devdeps.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s12call4.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
B() { timeout 90 stdbuf -oL $nj bench --tokens 1024 --reps 12 "$@" 2>&1 | grep -E "^(rmsnorm|fused)|rror|n/a"; }
run() {  # op hidden configs...
  local op=$1 h=$2; shift 2
  B --op $op --hidden $h
  for c in "$@"; do B --op $op --hidden $h --config residency=3,$c; done
}
{
  run fused_add_rmsnorm 262144 cluster=8,tpr=256,loads=1 cluster=8,tpr=128,loads=1 cluster=16,tpr=128,loads=1 cluster=16,tpr=64,loads=1 cluster=16,tpr=128,loads=0
  run fused_add_rmsnorm 131072 cluster=8,tpr=256,loads=0 cluster=8,tpr=128,loads=0 cluster=16,tpr=128,loads=0 cluster=16,tpr=128,loads=1 cluster=4,tpr=256,loads=0
  run fused_add_rmsnorm 65536 cluster=4,tpr=256,loads=0 cluster=4,tpr=128,loads=0 cluster=8,tpr=128,loads=0
  run rmsnorm 262144 cluster=8,tpr=256,loads=0 cluster=8,tpr=128,loads=0 cluster=16,tpr=128,loads=0
  run rmsnorm 131072 cluster=4,tpr=256,loads=0 cluster=4,tpr=128,loads=0 cluster=8,tpr=128,loads=0
  run rmsnorm 65536 cluster=2,tpr=256,loads=0 cluster=2,tpr=128,loads=0 cluster=4,tpr=128,loads=0
  B --op fused_add_rmsnorm --hidden 262144 --dtype fp32 --config residency=3,cluster=16,tpr=128,loads=1
  B --op fused_add_rmsnorm --hidden 262144 --dtype fp32 --config residency=3,cluster=16,tpr=256,loads=1
  echo "== defaults again"
  B --op fused_add_rmsnorm,rmsnorm --hidden 65536,131072,262144
} 2>&1 | tee "$R/staged-threads.txt"
echo "done at $(( $(date +%s) - start )) s"
