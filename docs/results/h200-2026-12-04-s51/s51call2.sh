#!/usr/bin/env bash
# Session 51, call 2: KernelConfig::keep_tail (the output hint on the rows of the last N MiB of
# output only) against no hint (keep_out=0, with and without the heuristic's floor) and the hint on
# every row (keep_tail=0), interleaved in one process, two rounds: re-read rows past 256 MiB of
# output (where the new default takes keep_tail 32) and a few inside the old window.
source "$(dirname "$0")/../scripts/device_call.sh" s51call2
build_cli > /dev/null || exit 1
call_deadline=570
C="default;keep_out=0;keep_out=0,minb=0;keep_out=1,keep_tail=16;keep_out=1,keep_tail=64;keep_out=1,keep_tail=0"
for r in 1 2; do
  bench_run p1-r$r --op rmsnorm --dtype bf16 --tokens 32768,65536 --hidden 4096,8192 --compare "$C"
  bench_run p3-r$r --op gemma_rmsnorm --dtype bf16 --tokens 32768 --hidden 4096,8192 --compare "$C"
  bench_run p2-r$r --op rmsnorm --dtype bf16 --tokens 32768,65536 --hidden 2560,3584,7168 --compare "$C"
  bench_run p4-r$r --op rmsnorm --dtype f32 --tokens 16384,32768 --hidden 2048,4096,8192 --compare "$C"
  bench_run p5-r$r --op rmsnorm --dtype f16 --tokens 12288,16384 --hidden 4096,18432 --compare "$C"
done
for n in p1 p3 p2 p4 p5; do rounds_side_by_side $n 2 > "$R/side-$n.txt"; done
cat "$R"/side-p1.txt "$R"/side-p3.txt | head -c 5000
grep -h "copy" "$R/p1-r1.txt" | head -1
grep -h "FAILED\|not valid" "$R"/p*-r1.txt | head -5
echo "done at $(elapsed) s"
