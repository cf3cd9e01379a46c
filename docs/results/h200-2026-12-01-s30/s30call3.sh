#!/usr/bin/env bash
# Device call 3 (session 30, the fused add's 2.x-4.x items unpinned): the GPU tests that reach the
# changed kernels (fused add / gemma fused add references, the switch rows, the forced pins),
# then the peers at those widths, then more pin A/Bs (fp32, 1.x items at few rows, 5.x items).
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s30call3
source scripts/gpu_build.sh
gpu_build "" normjit_cli test_gpu > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(elapsed) s"
i=0
for t in "fused_add_rmsnorm matches the float64 reference" "gemma_fused_add_rmsnorm matches the float64 reference" \
         "default configs at the row counts that switch kernels" "forced configs: the weight pinned on every item*"; do
  i=$((i+1)); ( timeout 200 build-gpu/tests/gpu/test_gpu "$t" > "$R/test$i.log" 2>&1; echo "rc=$? $(tail -2 "$R/test$i.log" | tr '\n' ' ') [$t]" > "$R/test$i.rc" ) &
done
wait
cat "$R"/test*.rc; echo "tests done at $(elapsed) s"
REBUILD=0 timeout 150 bash scripts/peers_bench.sh --ops fused_add_rmsnorm --tokens 256,1024,2048,8192,32768 --hidden 2304,2560,2816,3584,4608 \
  --autotune-min-tokens 100000000 --reps 20 --csv "$R/part-peers.csv" > "$R/part-peers.txt" 2> "$R/part-peers-stderr.txt"
echo "peers rc=$? at $(elapsed) s"; grep "geomean" "$R/part-peers.txt"
call_deadline=585
bench_compare pin-fp32-r2 fused_add_rmsnorm f32 512,1024,2048 2304,2816,3072,3584,4096 "default;pin_weight=0"
bench_compare pin-1x-bf16 fused_add_rmsnorm bf16 256,512,1024 1152,1536,1920,2040 "default;pin_weight=0;pin_weight=1"
bench_compare pin-5x-bf16 fused_add_rmsnorm bf16 256,1024,2048,8192 5376,5632,5888 "default;pin_weight=0"
bench_compare pin-part-f16-r2 fused_add_rmsnorm f16 256,512,1024 2304,2816,3584,4608 "default;pin_weight=0"
