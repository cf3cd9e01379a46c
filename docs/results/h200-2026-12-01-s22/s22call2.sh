#!/usr/bin/env bash
# Device call 2 (session 22): the second pass in batches (build-tmp/tpl_bat: 2 items, tpl_bat4, tpl_bat8;
# every load of a batch -- re-read row, late weight -- before its first store) against the embedded
# templates, one process per variant, ABAB, at the re-read, late-weight and staged kernels.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s22call2.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
T=$PWD/build-tmp
ab() { local f=$1; shift; timeout 150 python3 scripts/template_ab.py --normjit build-gpu/normjit "$@" > "$R/$f" 2>&1;
       echo "== $f rc=$? at $(( $(date +%s) - start )) s"; cat "$R/$f"; }
V4="base b2=$T/tpl_bat b4=$T/tpl_bat4 b8=$T/tpl_bat8 base2=base b2b=$T/tpl_bat b4b=$T/tpl_bat4 b8b=$T/tpl_bat8"
V3="base b2=$T/tpl_bat b4=$T/tpl_bat4 base2=base b2b=$T/tpl_bat b4b=$T/tpl_bat4"
ab lw16384.txt $V4 -- --op rmsnorm --tokens 1024,2048,4096 --hidden 16384 --reps 50
ab reload32768.txt $V3 -- --op rmsnorm --tokens 1024,4096 --hidden 32768 --reps 40
ab reload32768-minb2.txt $V3 -- --op rmsnorm --tokens 1024,4096 --hidden 32768 --reps 40 --config minb=2
ab fused-lw.txt $V3 -- --op fused_add_rmsnorm --tokens 1024,4096 --hidden 32768 --reps 40
ab fused-lw16384.txt $V3 -- --op fused_add_rmsnorm --tokens 2048,8192 --hidden 16384 --reps 40
ab staged.txt $V3 -- --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 65536,131072,262144 --reps 30
