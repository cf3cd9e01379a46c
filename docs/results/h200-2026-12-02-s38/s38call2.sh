#!/usr/bin/env bash
# Session 38, call 2: (a) strided head_dim 64, 32 heads (q of a fused qkv view) with head blocks:
# torch.compile's layout (64 threads, 4 rows a thread) and the weight unshared, against the
# default (8 lanes x 16 row groups x 2 rows, shared weight); (b) rmsnorm rows of 2048 at
# 8192/32768 rows: warp rows several a thread, dense (compile's max-autotune has 4-8 rows a CTA).
# Interleaved (--compare), rounds in separate processes.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s38call2
build_cli || exit 1
call_deadline=300
H="--op rmsnorm --dtype bf16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 2560,4096,8192,16384"
HC="default;rpb=8,rpt=4;rpb=8,rpt=4,weight_shared=0;weight_shared=0;rpb=4,rpt=8"
D="--op rmsnorm --dtype bf16 --hidden 2048 --tokens 8192,32768"
DC="default;tpr=32,rpb=4,pin_weight=0;tpr=32,rpb=4,rpt=2,dense=1,pin_weight=0;tpr=32,rpb=4,rpt=2,dense=1,pin_weight=0,weight_shared=1;tpr=32,rpb=2,rpt=4,dense=1,pin_weight=0;tpr=32,rpb=8,rpt=2,dense=1,pin_weight=0,reconvert=1"
for r in 1 2; do
  bench_run hd64-r$r $H --compare "$HC"
  bench_run d2048-r$r $D --compare "$DC"
done
rounds_side_by_side hd64 2; rounds_side_by_side d2048 2
echo "done at $(elapsed) s"
