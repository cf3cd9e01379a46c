#!/usr/bin/env bash
# Session 38, call 4: rows of several warps several a thread (rms_norm_rows with a block-wide
# reduction of all the thread's rows behind one barrier; torch.compile max-autotune's plan at
# 2048: 4-8 rows a CTA of 256 threads) against the defaults, rmsnorm rows of 2048 and 4096 at
# 8192/32768 rows; interleaved, rounds in separate processes.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s38call4
build_cli || exit 1
call_deadline=200
X="residency=0,pin_weight=0,dense=1,rpb=1"
A="--op rmsnorm --dtype bf16 --hidden 2048 --tokens 8192,32768"
AC="default;tpr=256,rpt=4,$X;tpr=256,rpt=8,$X;tpr=256,rpt=2,$X;tpr=128,rpt=2,$X;tpr=128,rpt=4,$X"
B="--op rmsnorm --dtype bf16 --hidden 4096 --tokens 8192,32768"
BC="default;tpr=512,rpt=2,$X;tpr=256,rpt=2,$X;tpr=256,rpt=4,$X;tpr=512,rpt=4,$X"
for r in 1 2; do
  bench_run mw2048-r$r $A --compare "$AC"
  bench_run mw4096-r$r $B --compare "$BC"
done
rounds_side_by_side mw2048 2; rounds_side_by_side mw4096 2
echo "done at $(elapsed) s"
