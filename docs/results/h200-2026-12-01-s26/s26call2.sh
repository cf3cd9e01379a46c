#!/usr/bin/env bash
# Device call 2 (session 26): at 0bd1415 + the staged-smem opt-in fix -- (1) the GPU tests of
# staged rows and of the row-count switches (staged shares of exactly 48 KiB, which failed to
# launch before the fix); (2) compares: bf16 rows of 7168-14336 on 512 threads of 8-byte vectors
# re-read (torch.compile's plan at 32768 x 10240 and x 7168: R0_BLOCK 2048, 16 warps, 32
# registers); fp32 rows of 288-480 4-vectors (hidden 1152-1920) and 1536-1792 (6144, 7168) under
# the bf16 rules' layouts. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s26call2.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli test_gpu > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
timeout 200 build-gpu/tests/gpu/test_gpu "forced configs: rows staged in shared memory (bulk copies)" \
  "default configs at the row counts that switch kernels" > "$R/gpu-tests.txt" 2>&1
echo "gpu tests rc=$? at $(( $(date +%s) - start )) s"; tail -4 "$R/gpu-tests.txt"
cmp() { local name=$1; shift; timeout 150 $nj bench --reps 30 "$@" > "$R/$name.txt" 2>&1
  echo "$name rc=$? at $(( $(date +%s) - start )) s"; grep -v "^device-to-device\|^$" "$R/$name.txt" | cut -c1-150; }
V4="tpr=512,vec=4,residency=2,loads=3,minb=0,pin_weight=0"
cmp vec4-rms --op rmsnorm --tokens 512,2048,8192,32768 --hidden 7168,10240,12288,14336 --compare \
  "default;$V4;tpr=512,vec=4,residency=2,loads=3,minb=4,pin_weight=0;tpr=512,vec=4,residency=0,loads=0,minb=0,pin_weight=0;tpr=256,vec=4,residency=2,loads=3,minb=0,pin_weight=0;tpr=1024,vec=4,residency=2,loads=3,minb=0,pin_weight=0"
cmp f32-narrow-rms --op rmsnorm --dtype fp32 --tokens 512,2048,8192,32768 --hidden 1152,1536,1920 --compare \
  "default;tpr=64,rpb=2,residency=0,loads=0,minb=0,pin_weight=0;tpr=64,rpb=2,residency=0,loads=3,minb=0,pin_weight=0;tpr=128,rpb=1,residency=0,loads=0,minb=0,pin_weight=1;tpr=128,rpb=1,residency=0,loads=0,minb=0,pin_weight=0"
cmp f32-narrow-fused --op fused_add_rmsnorm --dtype fp32 --tokens 512,2048,8192,32768 --hidden 1152,1536,1920 --compare \
  "default;tpr=128,rpb=1,residency=0,loads=0,stores=0,minb=0,pin_weight=1;tpr=128,rpb=1,residency=0,loads=0,stores=1,minb=0,pin_weight=0;tpr=64,rpb=2,residency=0,loads=0,stores=0,minb=0,pin_weight=0"
cmp f32-wide-rms --op rmsnorm --dtype fp32 --tokens 512,2048,8192,32768 --hidden 6144,7168 --compare \
  "default;tpr=512,residency=2,loads=3,minb=0,pin_weight=0;tpr=512,residency=1,loads=0,minb=0,pin_weight=0;tpr=256,residency=0,loads=0,minb=0,pin_weight=1"
cmp f32-wide-fused --op fused_add_rmsnorm --dtype fp32 --tokens 512,2048,8192,32768 --hidden 6144,7168 --compare \
  "default;tpr=512,residency=0,loads=0,minb=2,pin_weight=0;tpr=512,residency=0,loads=0,minb=0,pin_weight=0"
