#!/usr/bin/env bash
# Device call 9 (session 18): kernels first loaded after device memory was freed (as in bench
# --latency, which frees each size's buffers), with and without a dry pass; then call 3's passes
# with the minimal cubin too. Carry: build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
nvcc -cubin -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o build-tmp/late.cubin scripts/decode_anatomy_late.cu || exit 1
S=$(cat build-tmp/specs4.txt)
for mode in "--free-small 40" "--free-small 4" "--small-allocs 0"; do
  echo "== $mode"
  timeout 100 /tmp/decode_anatomy $mode --rounds 2 $S 2>&1 | grep -v "^us per"
done | tee "$R/anatomy-freed.txt"
L=build-tmp/late.cubin
timeout 100 /tmp/decode_anatomy --flush build-tmp/cubins/base-rmsnorm-bf16-h4096-v8-t128-r1.cubin:rms:128:4096:128 \
  build-tmp/cubins/base-fused_add_rmsnorm-bf16-h2048-v8-t256-r1.cubin:fused:128:2048:256 2>&1 | grep normjit | tee "$R/anatomy-passes.txt"
