#!/usr/bin/env bash
# Session 50, call 2: lead 8's own-copy widths (rmsnorm 49152-69632, 6-8.5 items a thread on
# 4 x 256, floor 6) against the floors and shapes ptxas compiles without spilling where the
# items are part-filled (floor 7/8 at 32 registers: no stack at 53248, 61440, 69632; regs.cpp),
# 8 x 128 own copies, 2 x 512 own copies, 4 x 256 bulk copies; and the fused add 262144 on 16 x
# 256 and with plain loads. bf16 and f16, 1024 and 4096 rows, two rounds (separate processes).
source "$(dirname "$0")/../scripts/device_call.sh" s50call2
build_cli > /dev/null || exit 1
call_deadline=420
cfgs="default;minb=7;minb=5;cluster=8,tpr=128,residency=4,minb=12;cluster=8,tpr=128,residency=4,minb=16;cluster=2,tpr=512,residency=4,minb=3;residency=3"
for r in 1 2; do
  bench_run own-r$r --op rmsnorm --dtype bf16,f16 --hidden 49152,53248,61440,69632 --tokens 1024,4096 --compare "$cfgs"
  bench_run fa-r$r --op fused_add_rmsnorm --dtype bf16 --hidden 262144 --tokens 1024 --compare "default;cluster=16,tpr=256,residency=3;loads=0"
done
for n in own fa; do rounds_side_by_side $n 2 > "$R/$n-side.txt"; done
cat "$R"/*-side.txt | head -c 9000
grep -h "copy" "$R/own-r1.txt" | head -3
echo "done at $(elapsed) s"
