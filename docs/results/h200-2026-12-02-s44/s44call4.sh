#!/usr/bin/env bash
# Session 44, call 4: the whole GPU suite on this tree (the floors and 8 x 128 clusters of
# rmsnorm's rows of 4097-16383 vectors), then the defaults at hidden 36864-262144 between the
# powers of two, 1024 rows, bf16, rmsnorm (the fused add's did not change).
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s44call4
gpu_suite_summary 430
build_cli > /dev/null || exit 1
call_deadline=540
bench_run defr --op rmsnorm --dtype bf16 --hidden 36864,40960,45056,49152,53248,57344,61440,69632,73728,81920,90112,98304,106496,114688,122880 --tokens 1024 --compare default
grep -E "x[01]\.[0-9]+|not valid|FAILED" $R/defr.txt | awk '{print $1,$4,$5,$6,$10}'
echo "done at $(elapsed) s"
