#!/usr/bin/env bash
# Session 54, call 2: (1) the suite's last step, which call 1's time limit cut: `normjit bench
# --latency` (decode graphs, host cost above a raw launch). (2) The fused add's 16-bit rows of
# 2049-4096 vectors (hidden 17408-32768), held on one 1024-thread CTA (44-58 registers, one CTA
# an SM), against the re-read with the hints by pass on 1024 threads under a floor of 2 (32
# registers), with and without the output hint, 512-16384 rows; two rounds. Call 1 found the
# re-read 11 % faster at 8192 x 20480 and level at 8192 x 24576.
source "$(dirname "$0")/../scripts/device_call.sh" s54call2
build_cli > /dev/null || exit 1
call_deadline=585
timeout 90 $nj bench --latency > "$R/latency.txt" 2>&1; echo "latency rc=$? at $(elapsed) s"
grep -E "host cost per call|us per launch|<=|miss" "$R/latency.txt" | head -40
for r in 1 2; do
  bench_run fw-r$r --op fused_add_rmsnorm --dtype bf16 --tokens 512,1024,2048,4096,8192,16384 \
    --hidden 17408,20480,24576,28672,32768 --compare \
    "default;tpr=1024,residency=2,loads=3,minb=2,keep_out=1;tpr=1024,residency=2,loads=3,minb=2,keep_out=0"
done
rounds_side_by_side fw 2
echo "done at $(elapsed) s"
