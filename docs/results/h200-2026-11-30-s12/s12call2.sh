#!/usr/bin/env bash
# Device call 2 (session 12): bench --latency with the same-bytes PDL copy beside each decode
# size; wide rows (1024 rows x 65536-262144) staged on clusters of 2-16 CTAs (16: non-portable,
# new), against the defaults, same process per config. Carry: build-tmp .devdeps.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s12call2.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
timeout 120 $nj bench --latency > "$R/latency.txt" 2>&1; echo "latency rc=$?"
grep -E "overhead|PDL|x " "$R/latency.txt"
B() { timeout "$1" stdbuf -oL $nj bench "${@:2}" 2>&1 | grep -E "^(rmsnorm|fused|device)|rror|n/a"; }
W="--op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 65536,131072,262144 --reps 20"
{
  echo "== default"; B 90 $W
  for c in 16 8 4 2; do echo "== staged cluster $c, 512 threads"; B 90 $W --config cluster=$c,residency=3,tpr=512,loads=0; done
  echo "== staged cluster 16, 256 threads"; B 90 $W --config cluster=16,residency=3,tpr=256,loads=0
  echo "== default again"; B 90 $W
  echo "== 4096 rows: default, then cluster 16"
  B 120 --op rmsnorm,fused_add_rmsnorm --tokens 4096 --hidden 131072,262144 --reps 10
  B 120 --op rmsnorm,fused_add_rmsnorm --tokens 4096 --hidden 131072,262144 --reps 10 --config cluster=16,residency=3,tpr=512,loads=0
} 2>&1 | tee "$R/wide-clusters.txt"
echo "done at $(( $(date +%s) - start )) s"
