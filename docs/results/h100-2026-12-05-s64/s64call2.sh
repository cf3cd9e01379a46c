#!/usr/bin/env bash
# Session 64, call 2 (carry build-tmp .devdeps .whl cache/prewarmed). 1. Call 1's synccheck fault at
# forced 16-CTA clusters: the sanitizer's barrier options, synccheck with more tracked barriers,
# racecheck and memcheck at 8 rows (the fewest that fault). 2. The whole GPU suite on this tree
# (scripts/gpu_suite.sh: GPU ctest, pytest, cache/prewarmed offline, bench --latency).
source "$(dirname "$0")/../scripts/device_call.sh" s64call2
build_cli > /dev/null || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
CS=${CS:-compute-sanitizer}
{
  $CS --version | tail -1
  $CS --help 2>&1 | grep -i -A2 "barrier"
  for run in "synccheck --num-cuda-barriers 64|--tokens 8 --hidden 2048" "synccheck --num-cuda-barriers 64|--tokens 200 --hidden 16384" \
             "racecheck|--tokens 8 --hidden 2048" "memcheck|--tokens 8 --hidden 2048" \
             "synccheck|--tokens 8 --hidden 2048 --dtype f32"; do
    tool=${run%%|*} shape=${run#*|}
    [ $(elapsed) -lt 110 ] || { echo "skip $run"; continue; }
    echo "== $tool: rmsnorm $shape --config cluster=16"
    timeout 30 $CS --tool $tool --print-limit 4 "$nj" bench --op rmsnorm $shape --config cluster=16 --reps 2 2>&1 |
      grep -v "^device-to-device\|^op " | head -30
  done
} > "$R/cluster-probe.txt" 2>&1
cat "$R/cluster-probe.txt"
gpu_suite_summary $(( 585 - $(elapsed) ))
echo "done at $(elapsed) s"
