#!/usr/bin/env bash
# Session 44, call 3 (lead 8): the new floors and 8 x 128 clusters (the tree's defaults) against
# the session-43 rule (4 x 256, floor 4), rmsnorm rows of 4608-15360 vectors, bf16 at 1024 and
# 4096 rows, gemma, f16, fp32; interleaved in one process, two rounds at 1024 rows. Kernels
# precompiled here (l8pre < l11_jobs.txt, into cache/l11).
# Carry: build-tmp .devdeps cache/l11
source "$(dirname "$0")/../scripts/device_call.sh" s44call3
build_cli || exit 1
call_deadline=330
export NORMJIT_CACHE_DIR=$(mktemp -d); cp -r cache/l11/. $NORMJIT_CACHE_DIR/
OLD=$(cat build-tmp/l11_old.txt); W=36864,40960,45056,49152,53248,57344,61440,69632,73728,81920,90112,98304,106496,114688,122880
bench_run new-r1 --op rmsnorm --dtype bf16 --hidden $W --tokens 1024 --compare "$OLD"
bench_run n73-r1 --op rmsnorm --dtype bf16 --hidden 73728 --tokens 1024 --compare "$(cat build-tmp/l11_73.txt)"
bench_run gemma-r1 --op gemma_rmsnorm --dtype bf16 --hidden 40960,49152,57344 --tokens 1024 --compare "$OLD"
bench_run f16-r1 --op rmsnorm --dtype f16 --hidden 40960,49152,98304 --tokens 1024 --compare "$OLD"
bench_run f32-r1 --op rmsnorm --dtype f32 --hidden 18432,20480,24576,40960,61440 --tokens 1024 --compare "$OLD"
bench_run t4096-r1 --op rmsnorm --dtype bf16 --hidden 36864,49152,61440,98304,122880 --tokens 4096 --compare "$OLD"
bench_run new-r2 --op rmsnorm --dtype bf16 --hidden $W --tokens 1024 --compare "$OLD"
bench_run n73-r2 --op rmsnorm --dtype bf16 --hidden 73728 --tokens 1024 --compare "$(cat build-tmp/l11_73.txt)"
for n in new-r1 new-r2 n73-r1 n73-r2 gemma-r1 f16-r1 f32-r1 t4096-r1; do echo "== $n"; grep -hE "x[01]\.[0-9]+|not valid|FAILED" $R/$n.txt | awk '{print $1,$3,$4,$5,$6,$10,$11}'; done
echo "compiles: $(grep -h -c 'compil' $R/*.txt | paste -sd+)"
echo "done at $(elapsed) s"
