#!/usr/bin/env bash
# Session 53, call 5: what the new rules left out. (1) 16-bit rows with a part-filled fourth item
# a thread (26624-30720: 40-46 registers held) held under a floor of 2 (8 bytes of stack) against
# the re-read. Interleaved in one process, two rounds. (An fp32 weight with 16-bit rows, which the
# rules leave out, cannot be timed by `normjit bench`: it has no weight-dtype option.)
source "$(dirname "$0")/../scripts/device_call.sh" s53call5
build_cli > /dev/null || exit 1
call_deadline=200
for r in 1 2; do
  bench_run p4-r$r --op rmsnorm --dtype bf16 --tokens 1024,2048,4096 --hidden 26624,28672,30720 --compare \
    "default;residency=1,loads=0,reconvert=1,minb=2"
done
for n in p4; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
