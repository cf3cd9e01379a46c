#!/usr/bin/env bash
# Device call 6 (session 30): the fp32 fused add's rows of 1.x items pin the first item below
# 1024 rows: new default / every item / none, then the forced-pin GPU test (now with fp32 768).
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s30call6
source scripts/gpu_build.sh
gpu_build "" normjit_cli test_gpu > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(elapsed) s"
call_deadline=120
bench_compare pin-fp32-first fused_add_rmsnorm f32 256,512,1024 640,768,896,1000 "default;pin_weight=1;pin_weight=0"
t="forced configs: the weight pinned on every item*"
timeout $(( 225 - $(elapsed) )) build-gpu/tests/gpu/test_gpu "$t" > "$R/test-pin.log" 2>&1
echo "rc=$? $(tail -2 "$R/test-pin.log" | tr '\n' ' ') [$t] at $(elapsed) s"
