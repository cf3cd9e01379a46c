#!/usr/bin/env bash
# Device call 1 (session 23): prototype -- wide rows split over CTAs meeting in global memory
# (no cluster launch), against the same template's cluster kernels. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s23call1.tgz r' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$R/gpu.txt" 2>&1
timeout 200 build-tmp/gx/gx_bench 40 > "$R/gx-round1.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/gx-round1.txt"
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 100 build-gpu/normjit bench --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 32768,65536,131072,262144 --reps 40 > "$R/lib-bench.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/lib-bench.txt"
timeout 200 build-tmp/gx/gx_bench 40 > "$R/gx-round2.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/gx-round2.txt"
