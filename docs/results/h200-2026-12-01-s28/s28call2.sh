#!/usr/bin/env bash
# Device call 2 (session 28): the weight read with plain loads (ld.global) instead of __ldg
# (ld.global.nc), build-tmp/tpl_wplain, against the embedded templates, one process each, ABAB, at
# the grid shapes behind max-autotune, 7168 and the 3-D rows. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s28call2.tgz r' EXIT
source scripts/gpu_build.sh
gpu_build "" normjit_cli > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
V="base wplain=build-tmp/tpl_wplain base2=base wplain2=build-tmp/tpl_wplain"
python3 scripts/template_ab.py --normjit build-gpu/normjit $V -- --op rmsnorm --tokens 8192,32768 \
  --hidden 4096,7168,8192,16384 --reps 30 > "$R/wplain-2d.txt" 2>&1
echo "2d at $(( $(date +%s) - start )) s"; cat "$R/wplain-2d.txt"
python3 scripts/template_ab.py --normjit build-gpu/normjit $V -- --op rmsnorm --tokens 65536,221184 \
  --hidden 128 --reps 40 > "$R/wplain-128.txt" 2>&1
python3 scripts/template_ab.py --normjit build-gpu/normjit $V -- --op rmsnorm --tokens 32768 \
  --hidden 256 --reps 40 > "$R/wplain-256.txt" 2>&1
python3 scripts/template_ab.py --normjit build-gpu/normjit $V -- --op fused_add_rmsnorm --tokens 8192,32768 \
  --hidden 4096,8192 --reps 30 > "$R/wplain-fused.txt" 2>&1
echo "done at $(( $(date +%s) - start )) s"; cat "$R/wplain-128.txt" "$R/wplain-256.txt" "$R/wplain-fused.txt"
