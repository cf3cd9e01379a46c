#!/usr/bin/env bash
# Device call 7 (session 15): the GPU suite at 443f4cd (the fused add's rows of 256 vectors on 256
# threads below 256 rows), without its benches. Carry: build-tmp .devdeps cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s15call7.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=1 timeout 230 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
echo "suite rc=$? at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
grep -E "tests passed|Failed|FAILED" "$R/ctest-gpu.log" | tail -5
