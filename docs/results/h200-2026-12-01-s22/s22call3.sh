#!/usr/bin/env bash
# Device call 3 (session 22, ed98092): the GPU suite at the new kernels (second pass in pairs),
# then where pairs pay on rmsnorm 32768's re-read rows: s21 (one by one) / base (pairs with plain
# loads, < 2048 rows) / tpl_bat (pairs with the hinted loads too), and the hinted rows forced to
# plain loads. Carry: build-tmp .devdeps cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s22call3.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 330 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
T=$PWD/build-tmp
ab() { local f=$1; shift; timeout 100 python3 scripts/template_ab.py --normjit build-gpu/normjit "$@" > "$R/$f" 2>&1;
       echo "== $f rc=$? at $(( $(date +%s) - start )) s"; cat "$R/$f"; }
ab pairs32768.txt s21=$T/tpl_s21 base all=$T/tpl_bat s21b=$T/tpl_s21 base2=base allb=$T/tpl_bat -- \
  --op rmsnorm --tokens 1024,1536,2047,2048,3072,4096 --hidden 32768 --reps 40
ab pairs32768-plain.txt s21=$T/tpl_s21 base s21b=$T/tpl_s21 base2=base -- \
  --op rmsnorm --tokens 2048,3072,4096 --hidden 32768 --reps 40 --config loads=0
echo "done at $(( $(date +%s) - start )) s"
