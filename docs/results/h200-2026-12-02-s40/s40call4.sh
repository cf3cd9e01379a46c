#!/usr/bin/env bash
# Session 40, call 4: the evict-last output stores on re-read rows by load policy. Call 3 found
# rmsnorm 1024 x 32768 (plain-load re-read rows, 64 MiB out, inside the re-read window) at 38.06 us
# against 35.65 in session 37, before the rule. The tree here takes re-read rows only where the
# first read is evict-last (loads 3). A/B default / keep_out=0 / keep_out=1 on plain-load and
# hinted re-read rows in the window, two rounds in separate processes; the GPU tests of the rule
# and of the wide rows' defaults; the wide rmsnorm rows beside the peers again.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s40call4
build_cli test_gpu || exit 1
call_deadline=330
C="default;keep_out=0;keep_out=1"
for r in 1 2; do
  bench_run w32-r$r --op rmsnorm --dtype bf16 --hidden 32768 --tokens 1024,2048,4080 --compare "$C"
  bench_run f16k-r$r --op rmsnorm --dtype fp32 --hidden 16384 --tokens 1024,4080 --compare "$C"
  bench_run w24-r$r --op rmsnorm --dtype bf16 --hidden 24576 --tokens 5440 --compare "$C"
done
for n in w32 f16k w24; do rounds_side_by_side $n 2; done
timeout 150 build-gpu/tests/gpu/test_gpu "default configs: rmsnorm's output kept in L2 past its byte thresholds" \
  "forced configs: output stores with and without the L2 evict-last hint" \
  "default configs at the row counts that switch kernels: wide rows" > "$R/gputest.txt" 2>&1
echo "gpu tests rc=$? at $(elapsed) s"; tail -3 "$R/gputest.txt"
REBUILD=0 timeout 90 bash scripts/peers_bench.sh --ops rmsnorm --tokens 1024 --hidden 32768,65536 --reps 20 \
  --autotune-min-tokens 1000000 --csv "$R/wide.csv" > "$R/wide.txt" 2> "$R/wide-stderr.txt"
echo "wide rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/wide.txt" | tail -4
left=$(( 560 - $(elapsed) )); [ $left -gt 150 ] && left=150
if [ $left -gt 40 ]; then
  timeout $left python3 scripts/peers/inductor_kernels.py --shapes rms:32768x4096 --modes max-autotune-no-cudagraphs \
    --launches > "$R/inductor.txt" 2>&1
  echo "inductor rc=$? at $(elapsed) s"; grep -E "kept config|launch:|for r0|R0_BLOCK|XBLOCK|eviction" "$R/inductor.txt" | cut -c1-220 | head -20
fi
echo "done at $(elapsed) s"
