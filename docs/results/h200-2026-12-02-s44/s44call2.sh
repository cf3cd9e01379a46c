#!/usr/bin/env bash
# Session 44, call 2 (lead 8): occupancy floors 6 and 8 and 8 x 128 clusters for rmsnorm's 4 x 256
# per-thread-copy rows at the widths between call 1's, at 512 and 4096 rows, and in fp32;
# interleaved in one process. Kernels precompiled here (l8pre < l10_jobs.txt, into cache/l10).
# Carry: build-tmp .devdeps cache/l10
source "$(dirname "$0")/../scripts/device_call.sh" s44call2
build_cli || exit 1
call_deadline=400
export NORMJIT_CACHE_DIR=$(mktemp -d); cp -r cache/l10/. $NORMJIT_CACHE_DIR/
C4=$(cat build-tmp/l9_c4.txt); C131=$(cat build-tmp/l9_c131.txt)
bench_run mid-r1 --op rmsnorm --dtype bf16 --hidden 38912,45056,53248,61440,69632,90112,106496,114688 --tokens 1024 --compare "$C4"
bench_run r131-r1 --op rmsnorm --dtype bf16 --hidden 131072 --tokens 1024 --compare "$C131"
bench_run f32-r1 --op rmsnorm --dtype f32 --hidden 18432,20480,24576,28672,40960,49152,61440 --tokens 1024 --compare "$C4"
bench_run t512-r1 --op rmsnorm --dtype bf16 --hidden 36864,40960,49152,57344,81920,98304,122880 --tokens 512 --compare "$C4"
bench_run t4096-r1 --op rmsnorm --dtype bf16 --hidden 36864,40960,49152,57344,81920,98304,122880 --tokens 4096 --compare "$C4"
bench_run mid-r2 --op rmsnorm --dtype bf16 --hidden 38912,45056,53248,61440,69632,90112,106496,114688 --tokens 1024 --compare "$C4"
for n in mid-r1 r131-r1 f32-r1 t512-r1 t4096-r1 mid-r2; do echo "== $n"; grep -hE "x[01]\.[0-9]+|not valid|FAILED" $R/$n.txt | awk '{print $3,$4,$5,$6,$10,$11}'; done
echo "compiles: $(grep -h -c 'compil' $R/*.txt | paste -sd+)"
echo "done at $(elapsed) s"
