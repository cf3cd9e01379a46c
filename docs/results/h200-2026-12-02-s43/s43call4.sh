#!/usr/bin/env bash
# Session 43, call 4: the whole GPU suite on this tree (part-filled staged shares in uneven parts,
# the lead-8 rules), then the defaults at the widths whose kernel changed (rows between powers of two), 1024 rows, bf16, both ops, as call 1 did before the change.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s43call4
gpu_suite_summary 430
build_cli > /dev/null || exit 1
call_deadline=525
bench_run defr --op rmsnorm --dtype bf16 --hidden 36864,40960,49152,57344,73728,81920,98304,106496,122880,139264,147456,163840,172032,196608,204800,229376,245760 --tokens 1024 --compare default
bench_run deff --op fused_add_rmsnorm --dtype bf16 --hidden 73728,81920,98304,114688,139264,172032,204800,237568 --tokens 1024 --compare default
for f in defr deff; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" $R/$f.txt | awk '{print $1,$4,$5,$6,$10}'; done
echo "done at $(elapsed) s"
