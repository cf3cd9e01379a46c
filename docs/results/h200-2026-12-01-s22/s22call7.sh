#!/usr/bin/env bash
# Device call 7 (session 22, the prefetch blocks of both row layouts merged into prefetch_lines):
# the GPU suite, then the kernels whose SASS moved (rows that end inside a vector group, the
# few-row clusters) against ed98092's templates (build-tmp/tpl_s22a), one process each, ABAB.
# Carry: build-tmp .devdeps cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s22call7.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=1 timeout 300 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
T=$PWD/build-tmp
ab() { local f=$1; shift; timeout 90 python3 scripts/template_ab.py --normjit build-gpu/normjit "$@" > "$R/$f" 2>&1;
       echo "== $f rc=$? at $(( $(date +%s) - start )) s"; cat "$R/$f"; }
ab prefetch-merge.txt old=$T/tpl_s22a base old2=$T/tpl_s22a base2=base -- \
  --op rmsnorm,fused_add_rmsnorm --tokens 1,32,128 --hidden 1536,3072,7168,8192 --reps 50
echo "done at $(( $(date +%s) - start )) s"
