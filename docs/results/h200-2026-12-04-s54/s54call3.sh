#!/usr/bin/env bash
# Session 54, call 3: the fused add's part-filled third item (2049-3071 vectors on 1024 threads)
# re-read from 2048 rows as the rule (the working tree: src/heuristics.cpp fused_part_reread).
# (1) bf16, every 1024 widths of 16400-24560 at 2048 and 8192 rows: the rule (default) against the
#     held row it replaced (OLD, 68e0e79's full config); at 1024 rows the held default against the
#     re-read. Two rounds. (2) f16 and gemma's fused add, 17408 / 20480, one round. (3) The GPU
#     test of the row counts that switch kernels (the rule's two new switch cases), alone.
# (4) If time is left: the fused add beside the peers at 2048 / 8192 x 17408 / 20480.
source "$(dirname "$0")/../scripts/device_call.sh" s54call3
build_cli test_gpu > /dev/null || exit 1
call_deadline=585
OLD="tpr=1024,rpb=1,vec=8,residency=1,minb=0,loads=0,stores=0,cluster=1,split=1,weight_first=0,keep_out=0,keep_tail=0,pin_weight=0,rpt=1,trigger=auto,prefetch=none,reconvert=0,dense=0,weight_shared=0,head_blocks=0"
W=16400,18432,19456,21504,22528,23552,24560
for r in 1 2; do
  bench_run rule-r$r --op fused_add_rmsnorm --dtype bf16 --tokens 2048,8192 --hidden $W --compare "default;$OLD"
  bench_run k1-r$r --op fused_add_rmsnorm --dtype bf16 --tokens 1024 --hidden $W --compare \
    "default;tpr=1024,residency=2,loads=3,minb=2,keep_out=0"
done
bench_run f16-r1 --op fused_add_rmsnorm --dtype f16 --tokens 2048,8192 --hidden 17408,20480 --compare "default;$OLD"
bench_run gemma-r1 --op gemma_fused_add_rmsnorm --dtype bf16 --tokens 2048,8192 --hidden 17408,20480 --compare "default;$OLD"
for n in rule k1; do rounds_side_by_side $n 2; done
for n in f16 gemma; do rounds_side_by_side $n 1; done
left=$(time_left) && NORMJIT_CACHE_DIR=$(mktemp -d) timeout $left build-gpu/tests/gpu/test_gpu \
  "default configs at the row counts that switch kernels" > "$R/switch-test.txt" 2>&1
echo "switch test rc=$? at $(elapsed) s"; tail -3 "$R/switch-test.txt"
left=$(time_left)
if [ "${left:-0}" -gt 60 ]; then
  OUT=$R REBUILD=0 timeout $((left - 5)) bash scripts/peers_bench.sh --ops fused_add_rmsnorm \
    --tokens 2048,8192 --hidden 17408,20480 --autotune-min-tokens 1000000 --reps 30 --csv "$R/fpart.csv" > "$R/fpart.txt" 2>&1
  echo "peers rc=$? at $(elapsed) s"; grep -E "^\|" "$R/fpart.txt" | tail -8
fi
echo "done at $(elapsed) s"
