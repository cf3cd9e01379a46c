#!/usr/bin/env bash
# Session 49, call 5: the new wide-row defaults (rmsnorm 33792-47104, gemma 40960/49152) beside
# the peers (scripts/peers_bench.sh: PyTorch eager, torch.compile, Liger, FlashInfer), 1024 and
# 4096 rows. Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s49call5
REBUILD=1 timeout 300 bash scripts/peers_bench.sh --ops rmsnorm --tokens 1024,4096 \
  --hidden 33792,36864,41984,45056,47104 --reps 20 --autotune-min-tokens 1000000 \
  --csv "$R/wide49.csv" > "$R/wide49.txt" 2> "$R/wide49-stderr.txt"
echo "rmsnorm rc=$? at $(elapsed) s"
REBUILD=0 timeout 120 bash scripts/peers_bench.sh --ops gemma_rmsnorm --tokens 1024,4096 \
  --hidden 40960,49152 --reps 20 --autotune-min-tokens 1000000 \
  --csv "$R/wide49g.csv" > "$R/wide49g.txt" 2> "$R/wide49g-stderr.txt"
echo "gemma rc=$? at $(elapsed) s"
cat "$R/wide49.txt" "$R/wide49g.txt" | tail -c 7000
echo "done at $(elapsed) s"
