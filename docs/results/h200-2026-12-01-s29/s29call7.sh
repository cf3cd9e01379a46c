#!/usr/bin/env bash
# Device call 7 (session 29, f84438a): the GPU tests that reach the changed kernels (the switch
# cases, incl. rmsnorm rows of 65-96 vectors from kBulkRowsRmsnorm; the forced pin_weight 0/1/2;
# the reference sweeps), then old / new default at those widths, then the peers there.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s29call7
source scripts/gpu_build.sh
gpu_build "" normjit_cli test_gpu > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(elapsed) s"
for t in "default configs at the row counts that switch kernels" \
         "forced configs: the weight pinned on every item*" \
         "rmsnorm matches the float64 reference" "gemma_rmsnorm matches the float64 reference" \
         "fused_add_rmsnorm matches the float64 reference"; do
  timeout 120 build-gpu/tests/gpu/test_gpu "$t" > "$R/test-$(echo $t | tr ' :/' '___' | cut -c1-40).log" 2>&1
  echo "rc=$? $(tail -2 "$R/test-$(echo $t | tr ' :/' '___' | cut -c1-40).log" | tr '\n' ' ') [$t] at $(elapsed) s"
done
timeout 60 $nj bench --op rmsnorm,gemma_rmsnorm --tokens 8192,32768,131072 --hidden 576,640,768 --reps 40 \
  --compare "default;tpr=64,rpb=2,rpt=1" > "$R/rows65-confirm.txt" 2>&1
echo "confirm rc=$? at $(elapsed) s"; grep -v "^device\|^op " "$R/rows65-confirm.txt" | awk '{print $1,$3,$4,$5,$6,$11}'
left=$(( 300 - $(elapsed) )); [ $left -lt 40 ] && exit 0
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 8192,32768,131072 --hidden 576,768 \
  --autotune-min-tokens 100000000 --reps 20 --csv "$R/rows65-peers.csv" > "$R/rows65-peers.txt" 2> "$R/rows65-peers-stderr.txt"
echo "peers rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/rows65-peers.txt" | grep -v "^|---\|^| shape" | cut -c1-200
