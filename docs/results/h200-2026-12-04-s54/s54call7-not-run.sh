#!/usr/bin/env bash
# Session 54, call 7: the final tree (rms_norm.cuh's kPinLastRow for bf16, the re-read from 8192
# rows). (1) Its defaults, validated against the float64 reference, at both sides of the switch in
# bf16, f16 and gemma. (2) The pinned held kernels calls 5-6 did not time (bf16 16400, 23552,
# 24560 at 1024 rows) against the unpinned templates (build-tmp/kt_orig: 68e0e79's), one process
# each, two rounds.
source "$(dirname "$0")/../scripts/device_call.sh" s54call7
build_cli > /dev/null || exit 1
call_deadline=125
bench_run fin-r1 --op fused_add_rmsnorm,gemma_fused_add_rmsnorm --dtype bf16,f16 --tokens 8191,8192 --hidden 20480 --compare "default"
one() { local name=$1 tdir=$2
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$PWD/$tdir/kernel_templates; export NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run "$name" --op fused_add_rmsnorm --dtype bf16 --tokens 1024 --hidden 16400,23552,24560 --compare "default" ) ; }
one edge-pin-r1 ""; one edge-orig-r1 build-tmp/kt_orig; one edge-orig-r2 build-tmp/kt_orig; one edge-pin-r2 ""
rounds_side_by_side fin 1
for n in edge-pin edge-orig; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
