#!/usr/bin/env bash
# Session 35, call 2: the per-head kernels with the multiply-shift division and whole stores
# (9e88edb): their GPU tests, then old (f7ea146's templates) / new on strided per-head rows, two
# rounds in opposite orders, then sweeps of two strided shapes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s35call2
build_cli test_gpu || exit 1
NORMJIT_CACHE_DIR=$(mktemp -d) timeout 240 ctest --test-dir build-gpu -L gpu -R "per-head|3-D|several rows|launched in parts|64-bit|converted again|one base|shared memory|switch kernels|bench --heads" -j 3 --output-on-failure > "$R/ctest-3d.txt" 2>&1
echo "ctest rc=$? at $(elapsed) s"; grep -E "tests passed|Failed|\*\*\*" "$R/ctest-3d.txt" | head -20
old=build-tmp/kt_old/kernel_templates
ab() { local name=$1; shift; local left=$(( 540 - $(elapsed) )); [ $left -lt 30 ] && { echo "skip $name"; return; }
  timeout $left python3 scripts/template_ab.py --normjit $nj "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
args128="--op rmsnorm --dtype bf16,f16 --hidden 128 --heads 32 --qkv-heads 48 --tokens 512,2048,4096,8192,16384 --reps 40"
args64="--op rmsnorm --dtype bf16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 2048,4096,8192,16384 --reps 40"
args256="--op rmsnorm --dtype bf16 --hidden 256 --heads 16 --qkv-heads 24 --tokens 1024,4096,8192 --reps 40"
argsk="--op rmsnorm --dtype bf16 --hidden 128 --heads 8 --qkv-heads 48 --tokens 8192,32768 --reps 40"
ab ab128-r1 old=$old new=base -- $args128
ab ab128-r2 new=base old=$old -- $args128
ab ab64-r1 old=$old new=base -- $args64
ab ab64-r2 new=base old=$old -- $args64
ab ab256-r1 old=$old new=base -- $args256
ab abk-r1 old=$old new=base -- $argsk
for f in ab128-r1 ab128-r2 ab64-r1 ab64-r2 ab256-r1 abk-r1; do echo "== $f"; grep "^| rms" "$R/$f.txt"; done
for t in 4096 8192; do left=$(( 590 - $(elapsed) )); [ $left -lt 40 ] && break
  timeout $left $nj bench --op rmsnorm --dtype bf16 --hidden 128 --heads 32 --qkv-heads 48 --tokens $t --reps 30 --sweep > "$R/sweep-q128-$t.txt" 2>&1; echo "sweep $t rc=$? at $(elapsed) s"; grep best: "$R/sweep-q128-$t.txt"; done
