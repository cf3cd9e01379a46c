#!/usr/bin/env bash
# Session 51, call 3: the whole GPU suite on the tree with KernelConfig::keep_tail (schema 16; the
# prewarmed cache rebuilt without a GPU for it), then the changed grid and gemma shapes beside the
# peers (rmsnorm and gemma_rmsnorm at 8192 and 32768 tokens x 4096 and 8192) if time is left.
# Carry build-tmp .devdeps .whl cache/prewarmed.
source "$(dirname "$0")/../scripts/device_call.sh" s51call3
call_deadline=590
gpu_suite_summary 480
grep -h "keep" "$R/ctest-gpu.log" | grep -i -E "passed|failed" | head -3
left=$(time_left)
if [ "${left:-0}" -gt 90 ]; then
  OUT=$R REBUILD=0 timeout $((left - 5)) bash scripts/peers_bench.sh --ops rmsnorm,gemma_rmsnorm --tokens 8192,32768 \
    --hidden 4096,8192 --autotune-min-tokens 8192 --reps 40 --csv "$R/grid32k.csv" > "$R/grid32k.txt" 2> "$R/grid32k-stderr.txt"
  echo "peers rc=$? at $(elapsed) s"
  tail -12 "$R/grid32k.txt"
fi
echo "done at $(elapsed) s"
