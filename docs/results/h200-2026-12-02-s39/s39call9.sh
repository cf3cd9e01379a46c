#!/usr/bin/env bash
# Session 39, call 9: rmsnorm's output kept in L2 by output bytes (the keep_out rule): the GPU
# tests that run its kernels (the new default-config test past the thresholds, the forced hint on
# 2-D and per-head layouts, head blocks, per-head rows), four processes side by side; then the
# grid's many-row rmsnorm shapes and target 4's per-head shapes beside the peers, as time allows.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s39call9
build_cli test_gpu || exit 1
t=build-gpu/tests/gpu/test_gpu
pids=()
i=0
for name in "default configs: rmsnorm's output kept in L2 past its byte thresholds" \
            "forced configs: output stores with and without the L2 evict-last hint" \
            "per-head rows by head blocks: the default for strided head_dim 64, and forced layouts" \
            "per-head 3-D rmsnorm"; do
  i=$((i + 1))
  timeout 110 $t "$name" > "$R/gputest$i.txt" 2>&1 &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait $p || rc=1; done
echo "gpu tests rc=$rc at $(elapsed) s"
for i in 1 2 3 4; do echo "-- $(head -c 0 /dev/null)gputest$i: $(grep -E 'All tests passed|test cases:' "$R/gputest$i.txt" | tail -1)"; done
[ $rc -eq 0 ] || grep -h -B2 -A10 FAILED "$R"/gputest*.txt | head -40
left=$(( 172 - $(elapsed) ))
if [ $left -gt 40 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 8192,32768 --hidden 2048,4096,8192 \
    --autotune-min-tokens 8192 --reps 30 --csv "$R/grid.csv" > "$R/grid.txt" 2> "$R/grid-stderr.txt"
  echo "grid rc=$? at $(elapsed) s"; grep "^|\\|geomean" "$R/grid.txt" | tail -9
fi
echo "done at $(elapsed) s"
