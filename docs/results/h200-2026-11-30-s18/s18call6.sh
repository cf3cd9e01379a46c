#!/usr/bin/env bash
# Device call 6 (session 18): does allocating and freeing device memory slow the decode kernels
# afterwards (normjit's, base and variant, and the minimal ones)? Then `bench --latency`.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
timeout 200 /tmp/decode_anatomy --churn --rounds 3 $(cat build-tmp/specs3.txt) > "$R/anatomy-churn.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/anatomy-churn.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
