#!/usr/bin/env bash
# Session 39, call 2: (a) layouts for the strided 24-head rows of 64 ([tokens, 72, 64] q view) at
# 8192 and 16384 tokens, where torch.compile leads by 1.6-2.2 % (call 1): head blocks of 12 x 2 and
# 6 x 4 rows, 8 x 4 (compile's rows a thread), 24 rows of one a thread; two rounds. (b) wide rows:
# is rmsnorm 1024 x 32768's gap the last wave (792 / 1024 / 1056 / 1320 rows), split rows there;
# the fused add 262144 at 792 / 1024 / 1056 rows.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s39call2
build_cli || exit 1
call_deadline=200
X="weight_shared=1,reconvert=1"
C="default;tpr=8,rpb=12,rpt=2,head_blocks=1,$X;tpr=8,rpb=6,rpt=4,head_blocks=1,$X;tpr=8,rpb=8,rpt=4,$X;tpr=8,rpb=24,rpt=1"
A="--op rmsnorm --hidden 64 --heads 24 --qkv-heads 72 --tokens 8192,16384"
for r in 1 2; do bench_run l24-r$r --dtype bf16 $A --compare "$C"; done
rounds_side_by_side l24 2
call_deadline=420
bench_run wtail --op rmsnorm --dtype bf16 --hidden 32768 --tokens 792,1024,1056,1320
bench_run wsplit --op rmsnorm --dtype bf16 --hidden 32768 --tokens 1024 \
  --compare "default;split=2;tpr=512,split=2;tpr=512,residency=2"
call_deadline=590
bench_run ftail --op fused_add_rmsnorm --dtype bf16 --hidden 262144 --tokens 792,1024,1056
grep -h "bf16" "$R"/wtail.txt "$R"/wsplit.txt "$R"/ftail.txt | cut -c1-150
echo "done at $(elapsed) s"
