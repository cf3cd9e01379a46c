#!/usr/bin/env bash
# Session 46, call 1 (kernels of the final tree of session 45, 915305d): the whole GPU suite
# (session 45 ran it on f26fa31, before its last fp32 rule), then what sessions 44-45 left
# untimed: the fp32 fused add's part-filled staged shares (69632, 139264, 204800) against
# re-reading the stored sum on 8 x 512, and fp32 fused add rows of 12288 and 14336 (held on one
# 1024-thread CTA) against the hinted re-read, at 8192 and 32768 rows.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s46call1
gpu_suite_summary 520
build_cli > /dev/null || exit 1
call_deadline=590
bench_run fused-f32 --op fused_add_rmsnorm --dtype f32 --hidden 69632,139264,204800 --tokens 1024 --compare "default;cluster=8,tpr=512,residency=2"
bench_run f32-npot --op fused_add_rmsnorm --dtype f32 --hidden 12288,14336 --tokens 8192,32768 --compare "default;residency=2,loads=3"
for f in fused-f32 f32-npot; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" $R/$f.txt | awk '{print $1,$3,$4,$5,$6,$10,$11}'; done
echo "done at $(elapsed) s"
