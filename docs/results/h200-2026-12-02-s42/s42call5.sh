#!/usr/bin/env bash
# Session 42, call 5: lead 7, the held-row kernels whose output hint costs CTAs an SM (held-ctas.txt,
# session 41), never timed: default (the hint) / keep_out=0, at their row counts from 96 MiB of
# output, two rounds in separate processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s42call5
build_cli || exit 1
call_deadline=400
C="default;keep_out=0"
for r in 1 2; do
  bench_run h7168-r$r --op rmsnorm --dtype f16 --hidden 7168 --tokens 8192,16384,32768 --compare "$C"
  bench_run h768-r$r --op rmsnorm --dtype f16 --hidden 768 --tokens 65536,131072,262144 --compare "$C"
  bench_run h3584-r$r --op rmsnorm --dtype bf16,f16 --hidden 3584 --tokens 16384,32768,65536 --compare "$C"
done
for n in h7168 h768 h3584; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
