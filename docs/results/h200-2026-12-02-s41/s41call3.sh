#!/usr/bin/env bash
# Session 41, call 3: the tree with the output hint on plainly read re-read rows of > 2.5 vectors
# a thread (16-bit rows of 4 a thread by store_vec_keep_at, the store at base + offset): the whole
# GPU suite (its new cases included), then the rule's new kernels at shapes call 2 did not time,
# default (the hint) / keep_out=0, two rounds in separate processes; then the wide rows beside the
# peers.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s41call3
gpu_suite_summary 440
nj=build-gpu/normjit
[ -x $nj ] || build_cli || exit 1
call_deadline=500
C="default;keep_out=0"
for r in 1 2; do
  bench_run n16-r$r --op rmsnorm --dtype bf16 --hidden 24576,28672,32768 --tokens 1024,1536 --compare "$C"
  bench_run nf16-r$r --op rmsnorm --dtype f16 --hidden 28672 --tokens 1536 --compare "$C"
  bench_run n32-r$r --op rmsnorm --dtype fp32 --hidden 10752,12288,14336 --tokens 2048,4096 --compare "$C"
done
for n in n16 nf16 n32; do rounds_side_by_side $n 2; done
left=$(( 590 - $(elapsed) ))
if [ $left -gt 40 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 1024 --hidden 32768,65536 --reps 20 \
    --autotune-min-tokens 1000000 --csv "$R/wide.csv" > "$R/wide.txt" 2> "$R/wide-stderr.txt"
  echo "wide rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/wide.txt" | tail -4
fi
echo "done at $(elapsed) s"
