#!/usr/bin/env bash
# For the next device session (not run in session 44): the whole GPU suite on the final tree
# (the part-filled bulk-copied second pass, 5e3c28c, ran only in the staged-config test), then
# what session 44 left untimed: rmsnorm's part-filled 16 x 128 defaults off the multiples of
# 16384 (against 4 x 512 bulk copies), the same vector counts in fp32, and the fp32 fused add's
# part-filled shares (16 x 128 at 69632, 8 x 512 at 139264 and 204800), 1024 rows. Copy it to
# build-tmp/ and regenerate cache/prewarmed first (`normjit prewarm --manifest all --arch sm_90
# --cache-dir cache/prewarmed`).
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" next-call
gpu_suite_summary 430
build_cli > /dev/null || exit 1
call_deadline=560
bench_run wide-r --op rmsnorm --dtype bf16 --hidden 172032,180224,204800,212992,237568 --tokens 1024 --compare "default;cluster=4,tpr=512,residency=3,loads=1"
bench_run wide-f32 --op rmsnorm --dtype f32 --hidden 86016,102400,118784 --tokens 1024 --compare "default;cluster=4,tpr=512,residency=3,loads=1"
bench_run fused-f32 --op fused_add_rmsnorm --dtype f32 --hidden 69632,139264,204800 --tokens 1024 --compare default
for f in wide-r wide-f32 fused-f32; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" $R/$f.txt | awk '{print $1,$4,$5,$6,$10,$11}'; done
echo "done at $(elapsed) s"
