#!/usr/bin/env bash
# Device call 6 (session 12): rows of 32768 (4096 vectors) at 1024 and 4096 rows, staged on
# clusters of 2-16 CTAs of 64-256 threads, against the default (one CTA per row: rmsnorm 1024
# threads re-reading, the fused add holding the row). Carry: build-tmp .devdeps.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s12call6.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
B() { timeout 60 stdbuf -oL $nj bench --op rmsnorm,fused_add_rmsnorm --hidden 32768 --tokens 1024,4096 --reps 15 "$@" 2>&1 | grep -E "^(rmsnorm|fused)|rror|n/a"; }
{
  echo "== default"; B
  for c in cluster=2,tpr=256 cluster=4,tpr=128 cluster=4,tpr=256 cluster=8,tpr=128 cluster=8,tpr=64 cluster=16,tpr=64; do
    echo "== staged $c"; B --config residency=3,loads=0,$c
  done
  echo "== default again"; B
} 2>&1 | tee "$R/staged-32768.txt"
echo "done at $(( $(date +%s) - start )) s"
