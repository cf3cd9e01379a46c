#!/usr/bin/env bash
# Device call 3 (session 18): normjit's decode kernels in scripts/decode_anatomy.cu, loaded as a
# module or as a library (CUkernel), on shared or freshly allocated buffers; `bench --latency`
# in the same call. Carry: build-tmp .devdeps cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s18call3.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
echo "built at $(( $(date +%s) - start )) s"
C=cache/prewarmed
specs=()
add() {  # slug op rows hidden threads
  f=$(find $C -name "$1-sm_90a-*.cubin" | head -1)
  [ -n "$f" ] || { echo "no $1"; return; }
  tail -c +65 "$f" > "/tmp/$1.cubin"; specs+=("/tmp/$1.cubin:$2:$3:$4:$5")
}
add rmsnorm-bf16-h2048-v8-t128-r1 rms 128 2048 128
add rmsnorm-bf16-h4096-v8-t128-r1 rms 128 4096 128
add fused_add_rmsnorm-bf16-h2048-v8-t256-r1 fused 128 2048 256
add fused_add_rmsnorm-bf16-h4096-v8-t256-r1 fused 128 4096 256
/tmp/decode_anatomy --flush "${specs[@]}" > "$R/anatomy-variants.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; grep normjit "$R/anatomy-variants.txt"
build-gpu/normjit bench --latency > "$R/latency.txt" 2>&1
echo "latency at $(( $(date +%s) - start )) s"; grep -E "128 x (2048|4096)" "$R/latency.txt"
