#!/usr/bin/env bash
# Device call 5 (session 18): normjit's decode kernels (base templates and three variants: the early
# trigger unconditional, the power-of-two mean as a multiply, both) beside scripts/decode_anatomy.cu's
# minimal norm of the same shape, interleaved over rounds on the same buffers. Carry: build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
timeout 200 /tmp/decode_anatomy --rounds 3 $(cat build-tmp/specs2.txt) > "$R/anatomy-rounds.txt" 2>&1
echo "rc=$?"; cat "$R/anatomy-rounds.txt"
