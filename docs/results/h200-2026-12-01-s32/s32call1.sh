#!/usr/bin/env bash
# Device call 1 (session 32): reconvert (a held 16-bit row converted again for its output), its
# GPU test, and interleaved compares against the defaults: per-head-like short rows, the grid's
# held rows, model widths; the fused add 262144 on per-thread copies with other shares.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s32call1
source scripts/gpu_build.sh
gpu_build "" normjit_cli test_gpu > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(elapsed) s"
timeout 120 build-gpu/tests/gpu/test_gpu "forced configs: a held 16-bit row converted again for its output, or not" > "$R/test-reconvert.log" 2>&1
echo "test rc=$? at $(elapsed) s"; tail -3 "$R/test-reconvert.log"
call_deadline=570
show() { grep -E "x[01]\.[0-9]+" "$R/$1.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'; grep -c FAILED "$R/$1.txt"; }
x4="rpt=4,tpr=8,rpb=8,residency=0"
bench_compare short128 rmsnorm bf16 65536,221184,262144 128 "default;reconvert=1;$x4,reconvert=1;$x4"
show short128
bench_compare short-other rmsnorm bf16 32768 256 "default;reconvert=1"
bench_compare short-other64 rmsnorm bf16 131072 64 "default;reconvert=1"
show short-other; show short-other64
bench_compare grid-bf16 rmsnorm bf16 128,512,2048,8192,32768 2048,4096,8192,16384 "default;reconvert=1"
show grid-bf16
bench_compare models rmsnorm bf16,f16 512,2048,8192 1536,3072,7168 "default;reconvert=1"
show models
bench_compare fused262144 fused_add_rmsnorm bf16 1024 262144 "default;tpr=512,cluster=16,residency=4;tpr=1024,cluster=8,residency=4;tpr=128,cluster=16,residency=4,loads=1"
show fused262144
bench_compare grid-f16 rmsnorm f16 512,2048,8192 4096,8192 "default;reconvert=1"
show grid-f16
echo "end at $(elapsed) s"
