#!/usr/bin/env bash
# Device call 1 (session 20): the weight (and residual) prefetched into L2 before the PDL wait
# (KernelConfig::prefetch, forced by --config) against the defaults in bench --latency, memset and
# kernel fills, alternating processes; then the GPU suite without its bench and peers parts (the
# new forced-prefetch GPU test). Carry: .devdeps cache/prewarmed build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
run() { name=$1; shift; timeout 60 build-gpu/normjit bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "== $name rc=$? at $(( $(date +%s) - start )) s"; }
run default
run pfw --config prefetch=weight
run pfwr --config prefetch=weight+residual
run default2
run pfw2 --config prefetch=weight
run default-kfill --fill kernel
run pfw-kfill --fill kernel --config prefetch=weight
python3 scripts/latency_compare.py $R/latency-default.txt $R/latency-pfw.txt $R/latency-pfwr.txt $R/latency-default2.txt $R/latency-pfw2.txt > "$R/compare-memset.txt" 2>&1
python3 scripts/latency_compare.py $R/latency-default-kfill.txt $R/latency-pfw-kfill.txt > "$R/compare-kfill.txt" 2>&1
python3 scripts/latency_compare.py --static $R/latency-default.txt $R/latency-pfwr.txt $R/latency-default2.txt > "$R/compare-static.txt" 2>&1
cat "$R/compare-memset.txt" "$R/compare-kfill.txt"
export OUT=$R
NORMJIT_SKIP_BENCH=1 timeout 260 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; tail -30 "$R/pytest.log"; }
echo "done at $(( $(date +%s) - start )) s"
timeout 90 build-gpu/normjit bench --op rmsnorm --tokens 221184,262144,65536 --hidden 128 --reps 40 --compare "default;loads=1;loads=2;loads=3;minb=16" > "$R/3d-loads-compare.txt" 2>&1
echo "3d compare rc=$?"; cat "$R/3d-loads-compare.txt" | grep -v "^#" | tail -20
