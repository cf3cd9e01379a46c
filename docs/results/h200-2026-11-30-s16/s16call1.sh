#!/usr/bin/env bash
# Device call 1 (session 16): facts on the shapes still behind torch.compile outside the copy
# ceiling: the 3-D per-head shapes of 16 MiB (8192x8x128 = 65536x128, 2048x16x256 = 32768x256)
# and rmsnorm 512x16384. Kernel-only durations (profiler) of normjit and compile, L2 flushed;
# Triton's kernels (configs, PTX); normjit sweeps at those shapes. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s16call1.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
export NORMJIT_LIBRARY=$PWD/build-gpu/libnormjit.so PYTHONPATH=$PWD/python NORMJIT_CACHE_DIR=$(mktemp -d)
timeout 150 python3 build-tmp/s16kdur.py 65536x128,32768x256,221184x128,131072x64,512x16384,128x4096,2048x2048 default,max-autotune-no-cudagraphs > "$R/kdur.txt" 2> "$R/kdur-err.txt"
echo "kdur rc=$? at $(( $(date +%s) - start )) s"; cat "$R/kdur.txt"; tail -3 "$R/kdur-err.txt"
timeout 100 python3 scripts/peers/inductor_kernels.py --shapes rms:65536x128,rms:32768x256,rms:131072x64 --modes default \
  --launches --ptx-dir "$R/ptx" > "$R/inductor.txt" 2>&1
echo "inductor rc=$? at $(( $(date +%s) - start )) s"; grep -E "launch:|XBLOCK|num_warps" "$R/inductor.txt" | head -20
nj=build-gpu/normjit
S() { local left=$(( 540 - ($(date +%s) - start) )); [ $left -gt 20 ] || return 0
  echo "== $*"; timeout $left $nj bench --reps 40 --sweep "$@" 2>&1 | grep -vE "^\s*$" > "$R/sw.tmp"; grep best "$R/sw.tmp"; grep -v best "$R/sw.tmp" | sort -k6 -n | head -25; }
{
  S --op rmsnorm --tokens 65536 --hidden 128
  S --op rmsnorm --tokens 32768 --hidden 256
} > "$R/sweeps.txt" 2>&1
grep -E "^==|best" "$R/sweeps.txt"
echo "done at $(( $(date +%s) - start )) s"
