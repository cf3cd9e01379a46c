#!/usr/bin/env bash
# Device call 8 (session 20, final kernels): the GPU suite (forced prefetch masks 1, 2, 4-7),
# then bench --latency with one weight (the suite's), each launch's own weight, and kernel fill.
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s20call8.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 300 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; exit 1; }
run() { name=$1; shift; timeout 40 build-gpu/normjit bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "== $name rc=$? at $(( $(date +%s) - start )) s"; }
run w100 --weights 100
run kfill --fill kernel
L=$R/latency
python3 scripts/latency_compare.py $R/latency.txt $L-w100.txt $L-kfill.txt > "$R/compare-final.txt" 2>&1
cat "$R/compare-final.txt"
echo "done at $(( $(date +%s) - start )) s"
