#!/usr/bin/env bash
# Device call 1 (session 18, at fd0f12b): where a decode-size norm's time goes in a PDL graph
# (scripts/decode_anatomy.cu), then the GPU suite (latency and short bench included).
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s18call1.tgz r' EXIT
export OUT=$R
nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu && /tmp/decode_anatomy > "$R/decode-anatomy.txt" 2>&1
echo "anatomy rc=$? at $(( $(date +%s) - start )) s"; cat "$R/decode-anatomy.txt"
NORMJIT_SKIP_BENCH=0 timeout 420 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -12
grep -E "tests passed|Failed|FAILED" "$R/ctest-gpu.log" | tail -8
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
grep -A40 "decode sizes" "$R/latency.txt" 2>/dev/null | head -36
echo "done at $(( $(date +%s) - start )) s"
