#!/usr/bin/env bash
# Session 41, call 5: the hinted wide rows (plain loads, below kHintedWideRows) across their row
# range, rmsnorm and gemma: default (the hint) / keep_out=0, two rounds in separate processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s41call5
[ -x $nj ] || build_cli || exit 1
call_deadline=200
C="default;keep_out=0"
for r in 1 2; do
  bench_run w-r$r --op rmsnorm --dtype bf16 --hidden 32768 --tokens 1024,1280,1792,2040 --compare "$C"
  bench_run g-r$r --op gemma_rmsnorm --dtype bf16 --hidden 32768 --tokens 1024,1536 --compare "$C"
done
for n in w g; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
