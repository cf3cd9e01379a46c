#!/usr/bin/env bash
# Device call 3 (session 14): the block reduction's shared-memory reads. Call 2 found the
# warp-shuffle reduction of the warp sums (warpred) 4 % faster on the t1024 re-read, but 2-4 %
# slower on the t512 re-read of 16384 (which it moves from 34 registers / 3 CTAs per SM to 32 / 4).
# Variants: warpred (every warp reduces the warp sums), tri (Triton's form: one warp reduces,
# second barrier, every thread reads one float), triwl (tri + the re-read rows' weight
# evict-last in L1 and L2). Carry: build-tmp .devdeps.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s14call3.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
nj=build-gpu/normjit
V="warpred=build-tmp/tpl14-warpred tri=build-tmp/tpl14-tri triwl=build-tmp/tpl14-triwl base2=base"
AB() { timeout 170 python3 scripts/template_ab.py --normjit $nj base $V -- "$@" 2>&1; }
{
  echo "== t1024 re-read 16384"
  AB --op rmsnorm --reps 30 --tokens 8192,32768 --hidden 16384 --config tpr=1024,residency=2,loads=3
  echo "== t512 re-read 16384 at 4 CTAs per SM (min_blocks=4: 32 registers)"
  AB --op rmsnorm --reps 30 --tokens 8192,32768 --hidden 16384 --config tpr=512,residency=2,loads=3,min_blocks=4
  echo "== defaults, large"
  AB --op rmsnorm,fused_add_rmsnorm --reps 30 --tokens 512,2048,8192,32768 --hidden 2048,4096,8192,16384
  echo "== defaults, small"
  AB --op rmsnorm,fused_add_rmsnorm --reps 40 --tokens 1,32,128 --hidden 4096,8192,16384
  echo "done at $(( $(date +%s) - start )) s"
} 2>&1 | tee "$R/reduce-ab.txt"
