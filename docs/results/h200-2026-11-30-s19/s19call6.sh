#!/usr/bin/env bash
# Device call 6 (session 19, at 1b0f2bf: bench's helper launches refactored): bench --latency with
# both fills and a short bench table, the helper kernels (flush, fill, PDL copy) as refactored.
# Carry: .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
timeout 60 build-gpu/normjit bench --latency > "$R/latency.txt" 2>&1; echo "latency rc=$?"
timeout 60 build-gpu/normjit bench --latency --fill kernel > "$R/latency-kernelfill.txt" 2>&1; echo "latency kernel-fill rc=$?"
timeout 120 build-gpu/normjit bench --op rmsnorm,fused_add_rmsnorm --tokens 1,128,2048,32768 --hidden 4096,8192 --reps 30 > "$R/bench.txt" 2>&1; echo "bench rc=$?"
grep -E "overhead|CUDA graph of 100|128 x 4096|32 x 8192|128 x 2048" "$R/latency.txt" "$R/latency-kernelfill.txt"
cat "$R/bench.txt" | tail -25
