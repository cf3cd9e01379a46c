#!/usr/bin/env bash
# Session 40, call 5: re-read rows' kernels with rmsnorm's output hint declared for the CTAs an SM
# holds without it (min_blocks = 2048 / block threads; default here) against the same hint with no
# floor (keep_out=1,minb=0: session 39's kernels where the rule set no floor of its own) and no
# hint (keep_out=0), two rounds in separate processes: rows of 32768 (38-42 registers unfloored),
# 12288 and 14336 on 512 threads, and the grid's re-read rows in the window (8192 x 4096 and
# 8192, 2048 x 16384, whose unfloored kernels already fit 32 registers). Then the GPU tests of
# the rule, and the wide rows and the affected grid shapes beside the peers.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s40call5
build_cli test_gpu || exit 1
call_deadline=150
C="default;keep_out=1,minb=0;keep_out=0"
for r in 1 2; do
  bench_run w32-r$r --op rmsnorm --dtype bf16 --hidden 32768 --tokens 1024,2048,4080 --compare "$C"
  bench_run w12-r$r --op rmsnorm --dtype bf16 --hidden 12288,14336 --tokens 4096 --compare "$C"
  bench_run g-r$r --op rmsnorm --dtype bf16 --hidden 4096,8192 --tokens 8192 --compare "$C"
  bench_run g16-r$r --op rmsnorm --dtype bf16 --hidden 16384 --tokens 2048 --compare "$C"
done
for n in w32 w12 g g16; do rounds_side_by_side $n 2; done
timeout 170 build-gpu/tests/gpu/test_gpu "default configs: rmsnorm's output kept in L2 past its byte thresholds,forced configs: output stores with and without the L2 evict-last hint,default configs at the row counts that switch kernels: wide rows" > "$R/gputest.txt" 2>&1
echo "gpu tests rc=$? at $(elapsed) s"; tail -3 "$R/gputest.txt"
left=$(( 400 - $(elapsed) )); [ $left -gt 60 ] && left=60
[ $left -gt 30 ] && { REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 1024 --hidden 32768 --reps 20 \
  --autotune-min-tokens 1000000 --csv "$R/wide.csv" > "$R/wide.txt" 2> "$R/wide-stderr.txt"
  echo "wide rc=$? at $(elapsed) s"; grep "^|" "$R/wide.txt" | tail -1; }
left=$(( 400 - $(elapsed) )); [ $left -gt 120 ] && left=120
[ $left -gt 40 ] && { REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 2048,8192 --hidden 4096,8192,16384 --reps 30 \
  --autotune-min-tokens 8192 --csv "$R/grid.csv" > "$R/grid.txt" 2> "$R/grid-stderr.txt"
  echo "grid rc=$? at $(elapsed) s"; grep "^|" "$R/grid.txt" | tail -6; }
echo "done at $(elapsed) s"
