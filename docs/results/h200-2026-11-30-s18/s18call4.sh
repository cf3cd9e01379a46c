#!/usr/bin/env bash
# Device call 4 (session 18): the weight fetched once per cluster of rows (TMA multicast) or per two
# rows, against once per row, in decode-size PDL graphs (scripts/decode_anatomy.cu). Carry: build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
timeout 120 /tmp/decode_anatomy > "$R/anatomy-multicast.txt" 2>&1
echo "rc=$?"; cat "$R/anatomy-multicast.txt"
