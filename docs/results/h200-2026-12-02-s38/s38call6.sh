#!/usr/bin/env bash
# Session 38, call 6: does the output's allocation explain torch.compile's lead at many rows?
# The peers' outputs come from the caching allocator on every call (one block, reused), normjit's
# from a preallocated tensor per input set; normjit-alloc and ref-clone take theirs as the peers do.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s38call6
REBUILD=1 timeout 240 bash scripts/peers_bench.sh --ops rmsnorm --tokens 32768 --hidden 2048,4096,8192 \
  --autotune-min-tokens 8192 --reps 40 --normjit-alloc --csv "$R/alloc.csv" > "$R/alloc.txt" 2> "$R/alloc-stderr.txt"
echo "alloc rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/alloc.txt"
