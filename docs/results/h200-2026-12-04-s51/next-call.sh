#!/usr/bin/env bash
# Not run (written at the end of session 51, whose device time was spent): the whole GPU suite on
# the final tree (151772e adds rmsnorm 32768+ x 16384's floor of 2 after call 3's suite), then the
# grid beside the peers, whose rmsnorm 32768 x 16384 that floor should take from 1.002 of
# max-autotune to about 0.997. Copy to build-tmp/ (rename the call) and carry build-tmp .devdeps
# .whl cache/prewarmed (prewarmed again: ./build/normjit prewarm --manifest all --arch sm_90
# --cache-dir cache/prewarmed).
source "$(dirname "$0")/../scripts/device_call.sh" s52call1
call_deadline=590
gpu_suite_summary 460
left=$(time_left)
if [ "${left:-0}" -gt 60 ]; then
  OUT=$R REBUILD=0 timeout $((left - 5)) bash scripts/peers_bench.sh --ops rmsnorm,gemma_rmsnorm \
    --tokens 16384,32768 --hidden 16384 --autotune-min-tokens 8192 --reps 40 --csv "$R/w16k.csv" > "$R/w16k.txt" 2>&1
  tail -8 "$R/w16k.txt"
fi
echo "done at $(elapsed) s"
