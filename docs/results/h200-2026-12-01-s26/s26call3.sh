#!/usr/bin/env bash
# Device call 3 (session 26): the predicated hinted loads (common.cuh: load_chunk_if) A/B'd
# against the template before (tpl_old = 8abe787's), one process each, two rounds, at the default
# kernels they change: rmsnorm's re-read rows of 1281-2047 16-byte vectors (10752-15872), the
# one-CTA re-read of 2049-4095 (16896-32256), bf16 2560-3584 at 2 rows a block, fp32 7168.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s26call3.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
ab() { local name=$1; shift; timeout 200 python3 scripts/template_ab.py --normjit build-gpu/normjit \
  new=build-tmp/tpl_new old=build-tmp/tpl_old new2=build-tmp/tpl_new old2=build-tmp/tpl_old -- --reps 30 "$@" > "$R/$name.txt" 2>&1
  echo "$name rc=$? at $(( $(date +%s) - start )) s"; cat "$R/$name.txt"; }
ab pred-rms-mid --op rmsnorm --tokens 512,1024,8192,32768 --hidden 11264,14336,15360
ab pred-rms-wide --op rmsnorm --tokens 2048,8192 --hidden 20480,28672
ab pred-rms-narrow --op rmsnorm --tokens 8192,32768 --hidden 2560,3584
ab pred-f32 --op rmsnorm --dtype fp32 --tokens 512,8192,32768 --hidden 7168
