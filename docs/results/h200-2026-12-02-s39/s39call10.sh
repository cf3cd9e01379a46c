#!/usr/bin/env bash
# Session 39, call 10 (run inline on the warm machine of call 9, its build kept): the head-blocks GPU
# test (call 9 had passed its name unescaped, and Catch2 splits test names at commas), then target
# 4's contiguous per-head shapes beside the peers with the keep_out rule.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s39call10
t=build-gpu/tests/gpu/test_gpu
timeout 55 $t "per-head rows by head blocks: the default for strided head_dim 64\, and forced layouts" > $R/gputest3.txt 2>&1
echo "hb rc=$? at $(elapsed) s: $(tail -2 $R/gputest3.txt | head -1)"
REBUILD=0 timeout $((112 - $(elapsed))) bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 30 \
  --heads 4608x48x128,8192x32x128,8192x16x256 --csv $R/3d.csv > $R/3d.txt 2> $R/3d-stderr.txt
echo "3d rc=$? at $(elapsed) s"; grep '^|' $R/3d.txt | tail -3
