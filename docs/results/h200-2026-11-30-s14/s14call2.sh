#!/usr/bin/env bash
# Device call 2 (session 14, prepared in session 13): why is our 1024-thread re-read kernel 4 %
# behind torch.compile max-autotune's with the same memory plan (benchmarks.md lead 2)? Variants
# from build-tmp/s14prep.py (run it first, on the build machine): warpred, divfast, nopdl.
# Carry: build-tmp .devdeps.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s14call2.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
nj=build-gpu/normjit
AB() { timeout 150 python3 scripts/template_ab.py --normjit $nj "$@" 2>&1; }
{
  echo "== t1024 re-read, PDL on"
  AB base warpred=build-tmp/tpl14-warpred divfast=build-tmp/tpl14-divfast both=build-tmp/tpl14-both base2=base -- --op rmsnorm --reps 30 \
    --tokens 8192,32768 --hidden 16384 --config tpr=1024,residency=2,loads=3
  echo "== defaults, PDL on"
  AB base warpred=build-tmp/tpl14-warpred divfast=build-tmp/tpl14-divfast both=build-tmp/tpl14-both base2=base -- --op rmsnorm,fused_add_rmsnorm --reps 30 \
    --tokens 512,8192,32768 --hidden 2048,4096,8192,16384
  echo "== t1024 re-read, --no-pdl"
  AB base nopdl=build-tmp/tpl14-nopdl base2=base -- --op rmsnorm --reps 30 --no-pdl \
    --tokens 8192,32768 --hidden 16384 --config tpr=1024,residency=2,loads=3
  echo "== torch.compile max-autotune launches where it leads"
  timeout 200 python3 scripts/peers/inductor_kernels.py --shapes rms:8192x4096,rms:32768x2048,rms:8192x8192,rms:512x16384 \
    --modes default,max-autotune-no-cudagraphs --launches --ptx-dir "$R/ptx" 2>&1 | grep -v Warning
  echo "done at $(( $(date +%s) - start )) s"
} 2>&1 | tee "$R/t1024-ab.txt"
