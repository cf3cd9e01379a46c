#!/usr/bin/env bash
# For the next device session (not run in session 45): the whole GPU suite on the final tree
# (session 45 ran it on f26fa31, before the fp32 16384 rule; its last step ran past 430 s, so
# this gives it 520), then what sessions 44-45 left untimed: the fp32 fused add's part-filled
# staged shares (139264, 204800 on 8 x 512; 69632 on 16 x 128) against re-reading the stored sum
# on 8 x 512, and fp32 fused add rows of 2049-4095 vectors (12288, 14336) held on one 1024-thread
# CTA against the hinted re-read, 8192 and 32768 rows. Copy it to build-tmp/ and regenerate
# cache/prewarmed first (`normjit prewarm --manifest all --arch sm_90 --cache-dir cache/prewarmed`).
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" next-call
gpu_suite_summary 520
build_cli > /dev/null || exit 1
call_deadline=590
bench_run fused-f32 --op fused_add_rmsnorm --dtype f32 --hidden 69632,139264,204800 --tokens 1024 --compare "default;cluster=8,tpr=512,residency=2"
bench_run f32-npot --op fused_add_rmsnorm --dtype f32 --hidden 12288,14336 --tokens 8192,32768 --compare "default;residency=2,loads=3"
for f in fused-f32 f32-npot; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" $R/$f.txt | awk '{print $1,$3,$4,$5,$6,$10,$11}'; done
echo "done at $(elapsed) s"
