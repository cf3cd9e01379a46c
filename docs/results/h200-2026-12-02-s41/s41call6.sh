#!/usr/bin/env bash
# Session 41, call 6: call 5 had bf16 2040 x 32768 (plain loads, hinted stores) at 66.85 us; from
# kHintedWideRows (2048) the default reads with the L1/L2 hints and stores plainly (67.8 in call 2).
# Wide rows in the output hint's window (to 255 MiB): default / plain loads with the hint, two rounds.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s41call6
[ -x $nj ] || build_cli || exit 1
call_deadline=200
C="default;loads=0,keep_out=1;loads=0"
for r in 1 2; do
  bench_run h-r$r --op rmsnorm --dtype bf16 --hidden 32768 --tokens 2048,3072,4080 --compare "$C"
  bench_run h28-r$r --op rmsnorm --dtype bf16 --hidden 24576,28672 --tokens 2048,4096 --compare "$C"
done
for n in h h28; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
