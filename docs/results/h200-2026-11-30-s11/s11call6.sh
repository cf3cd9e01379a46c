#!/usr/bin/env bash
# Device call 6 (session 11): the final defaults (8-CTA clusters up to 8 rows of 2048 vectors):
# the prewarmed cache offline, the GPU test of defaults at the switching row counts, the
# latency figures, and isolated calls at 1-32 x 16384.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s11call6.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli test_gpu || exit 1
pre=$(mktemp -d); cp -r cache/prewarmed/. "$pre/"
NORMJIT_OFFLINE=1 NORMJIT_CACHE_DIR="$pre" build-gpu/tests/gpu/test_gpu "[.prewarmed]" 2>&1 | tail -2 | tee "$R/prewarmed.txt"
NORMJIT_OFFLINE=1 NORMJIT_CACHE_DIR="$pre" NORMJIT_TEST_MANIFEST=all build-gpu/tests/gpu/test_gpu -s "[.prewarmed_manifest]" 2>&1 | grep -E "^manifest|passed|failed" | tee -a "$R/prewarmed.txt"
export NORMJIT_CACHE_DIR=$(mktemp -d)
timeout 100 build-gpu/tests/gpu/test_gpu "default configs at the row counts that switch kernels" 2>&1 | tail -2 | tee "$R/test-defaults.txt"
echo "tests at $(( $(date +%s) - start )) s"
timeout 90 build-gpu/normjit bench --latency > "$R/latency.txt" 2>&1
grep -E " x |overhead|worst|graph of" "$R/latency.txt"
timeout 40 build-gpu/normjit bench --op rmsnorm,fused_add_rmsnorm --tokens 1,8,9,32 --hidden 16384 --reps 50 2>&1 | tee "$R/few-16384.txt" | grep -E "^(rmsnorm|fused)"
echo "done at $(( $(date +%s) - start )) s"
