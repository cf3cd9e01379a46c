#!/usr/bin/env bash
# Device call 2 (session 30, 95f3c8c): where the weight pin loses at few rows. Call 1 had the bf16
# fused add of 2304-4864 unpinned 4-10 % ahead at 256-1024 rows; here the grid 256-8192 rows x
# 2048-8192 wide, default / unpinned (and loads=2, whose part-filled item is predicated in PTX).
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s30call2
build_cli || exit 1
call_deadline=585
T=256,512,1024,2048,4096,8192
H=2048,2304,2560,2816,3072,3584,4096,4608,5120,6144,8192
bench_compare pin-fused-bf16 fused_add_rmsnorm bf16 $T $H "default;pin_weight=0;loads=2;loads=2,pin_weight=0"
bench_compare pin-rms-bf16 rmsnorm bf16 $T $H "default;pin_weight=0"
bench_compare pin-fused-f16 fused_add_rmsnorm f16 $T $H "default;pin_weight=0"
bench_compare pin-rms-f16 rmsnorm f16 $T $H "default;pin_weight=0"
bench_compare pin-fused-fp32 fused_add_rmsnorm f32 $T $H "default;pin_weight=0"
bench_compare pin-gemma-bf16 gemma_fused_add_rmsnorm bf16 $T 2304,4608,6144 "default;pin_weight=0"
