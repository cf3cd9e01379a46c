#!/usr/bin/env bash
# Session 44, call 1 (lead 8): occupancy floors and 8 x 128 clusters for rmsnorm's 4 x 256
# per-thread-copy rows (36864-122880), and the part-filled 16-CTA shares (rmsnorm 139264-204800,
# fused add 139264-237568), 1024 rows, bf16, interleaved in one process. Kernels precompiled here
# (l8pre < l9_jobs.txt, into cache/l9).
# Carry: build-tmp .devdeps .whl cache/l9
source "$(dirname "$0")/../scripts/device_call.sh" s44call1
build_cli || exit 1
call_deadline=330
export NORMJIT_CACHE_DIR=$(mktemp -d); cp -r cache/l9/. $NORMJIT_CACHE_DIR/
RA=$(cat build-tmp/l9_ra.txt); RB=$(cat build-tmp/l9_rb.txt); FB=$(cat build-tmp/l9_fb.txt)
bench_run ra-r1 --op rmsnorm --dtype bf16 --hidden 36864,40960,49152,57344,65536,73728,81920,98304,122880 --tokens 1024 --compare "$RA"
bench_run rb-r1 --op rmsnorm --dtype bf16 --hidden 139264,172032,204800 --tokens 1024 --compare "$RB"
bench_run fb-r1 --op fused_add_rmsnorm --dtype bf16 --hidden 139264,172032,204800,237568 --tokens 1024 --compare "$FB"
bench_run ra-r2 --op rmsnorm --dtype bf16 --hidden 36864,40960,49152,57344,65536,73728,81920,98304,122880 --tokens 1024 --compare "$RA"
rounds_side_by_side ra 2
rounds_side_by_side rb 1
rounds_side_by_side fb 1
grep -h "copy" $R/ra-r1.txt | head -3
echo "compiles: $(grep -h -c 'compil' $R/*.txt | paste -sd+)"
echo "done at $(elapsed) s"
