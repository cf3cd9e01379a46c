#!/usr/bin/env bash
# Device call 2 (session 13): is torch.compile's edge at many rows of 4096-16384 its low memory
# parallelism? Its looped reduction loads 8 bytes per thread per iteration, one iteration at a
# time (num_stages 1); ours issues 4 items per thread at once (re-read) or the whole row (held).
# Template variants: base, u1 (re-read loops not unrolled), u2; default and forced configs.
# Carry: build-tmp .devdeps.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s13call2.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
nj=build-gpu/normjit
AB() { timeout 150 python3 scripts/template_ab.py --normjit $nj base u1=build-tmp/tpl-u1 u2=build-tmp/tpl-u2 base2=base -- --op rmsnorm --reps 30 "$@" 2>&1; }
{
  echo "== default, 16384"; AB --tokens 512,2048,8192,32768 --hidden 16384
  echo "== default, 4096/8192"; AB --tokens 8192,32768 --hidden 4096,8192
  echo "at $(( $(date +%s) - start )) s"
  for c in tpr=1024,vec=4,residency=2,loads=3 tpr=512,vec=4,residency=2,loads=3 tpr=512,vec=8,residency=2,loads=3; do
    echo "== forced $c, 16384"; AB --tokens 512,2048,8192,32768 --hidden 16384 --config $c
    echo "at $(( $(date +%s) - start )) s"
  done
  for c in tpr=512,vec=4,residency=2,loads=3 tpr=1024,vec=4,residency=2,loads=3; do
    echo "== forced $c, 4096/8192"; AB --tokens 8192,32768 --hidden 4096,8192 --config $c
    echo "at $(( $(date +%s) - start )) s"
  done
} 2>&1 | tee "$R/unroll-ab.txt"
echo "done at $(( $(date +%s) - start )) s"
