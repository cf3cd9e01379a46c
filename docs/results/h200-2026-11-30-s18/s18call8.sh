#!/usr/bin/env bash
# Device call 8 (session 18): kernels loaded after small allocations (as in bench --latency) against
# loaded first; minimal norms in a cubin of their own, with and without a dry pass before the PDL
# wait; CUDA_MODULE_LOADING lazy (default) and eager. Carry: build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
nvcc -cubin -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o build-tmp/late.cubin scripts/decode_anatomy_late.cu || exit 1
S=$(cat build-tmp/specs4.txt)
for mode in "0 LAZY" "40 LAZY" "40 EAGER" "0 EAGER"; do
  set -- $mode
  echo "== small allocs $1, CUDA_MODULE_LOADING=$2"
  CUDA_MODULE_LOADING=$2 timeout 100 /tmp/decode_anatomy --small-allocs $1 --rounds 2 $S 2>&1 | grep -v "^us per"
done | tee "$R/anatomy-late.txt"
