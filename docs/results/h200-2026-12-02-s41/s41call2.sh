#!/usr/bin/env bash
# Session 41, call 2: lead 6 on the GPU. Template set "at" (build-tmp/kt_at) makes the re-read
# pass's hinted output store take the row base and a byte offset, added inside the asm: on sm_90a
# 40-42 -> 32 registers at bf16 25088-32768 and 12288 (regs_at.cpp). Does the output hint pay
# where it no longer costs CTAs? One process per template set and dtype, two rounds, rotated;
# each compares the default (no hint there) with keep_out=1 (min_blocks 0).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s41call2
build_cli || exit 1
call_deadline=560
C="default;keep_out=1"
one() { local set=$1 round=$2 tdir=""
  [ "$set" = at ] && tdir=build-tmp/kt_at/kernel_templates
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$tdir; export NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run b32-$set-r$round --op rmsnorm --dtype bf16 --hidden 32768 --tokens 1024,2048 --compare "$C"
    bench_run b28-$set-r$round --op rmsnorm --dtype bf16 --hidden 28672,12288 --tokens 2048,8192 --compare "$C"
    bench_run f16k-$set-r$round --op rmsnorm --dtype fp32 --hidden 16384 --tokens 1024,2048 --compare "$C" ) ; }
one base 1; one at 1; one at 2; one base 2
for s in base at; do for n in b32 b28 f16k; do rounds_side_by_side $n-$s 2; done; done
echo "done at $(elapsed) s"
