#!/usr/bin/env bash
# Device call 5 (session 11): the GPU tests of forced splits and clusters after the override fix
# (a forced split replaces the heuristic's cluster); the wide rows side by side at 1024 rows;
# per graph launch with 8-CTA clusters forced.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s11call5.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli test_gpu || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
timeout 120 build-gpu/tests/gpu/test_gpu "[split],[cluster]" 2>&1 | tail -3 | tee "$R/test-split-cluster.txt"
echo "tests at $(( $(date +%s) - start )) s"
REBUILD=0 timeout 270 bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 1024 \
  --hidden 32768,65536,131072,262144 --reps 20 --autotune-min-tokens 1000000 --csv "$R/peers-wide.csv" \
  > "$R/peers-wide.txt" 2> "$R/peers-wide-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
grep -E "^\||geomean|copy ceiling" "$R/peers-wide.txt"
left=$(( 500 - ($(date +%s) - start) ))
[ $left -gt 30 ] && timeout $left build-gpu/normjit bench --latency --config cluster=8 > "$R/latency-c8.txt" 2>&1
grep -E " x |overhead" "$R/latency-c8.txt"
