#!/usr/bin/env bash
# Session 41, call 1: the whole GPU suite on ddafbe7 (the final tree of session 40, never run as a
# whole suite), then lead 1: max-autotune's plan (two rows a CTA) for rmsnorm at 32768 rows.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s41call1
gpu_suite_summary 440
call_deadline=585
C4="default;rpb=2;rpb=2,minb=2;rpb=2,loads=0;rpb=4"
C8="default;rpb=2;tpr=256,rpb=2;tpr=256,rpb=4"
for r in 1 2; do
  bench_run r4-r$r --op rmsnorm --dtype bf16 --hidden 4096 --tokens 32768 --compare "$C4"
  bench_run r8-r$r --op rmsnorm --dtype bf16 --hidden 8192,16384 --tokens 32768 --compare "$C8"
done
for n in r4 r8; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
