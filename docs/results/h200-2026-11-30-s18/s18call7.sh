#!/usr/bin/env bash
# Device call 7 (session 18): which kernels `bench --latency` loads (NORMJIT_LOG=debug), its decode
# figures, and call 3's four passes of scripts/decode_anatomy.cu again (is its slowdown repeatable?).
# Carry: build-tmp .devdeps cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
echo "built at $(( $(date +%s) - start )) s"
NORMJIT_LOG=debug build-gpu/normjit bench --latency > "$R/latency.txt" 2> "$R/latency-log.txt"
grep -o "compiled [^ ]*" "$R/latency-log.txt" | sort | uniq -c
grep -E "128 x (2048|4096)|32 x 8192" "$R/latency.txt"
specs=()
add() {  # slug op rows hidden threads
  f=$(find cache/prewarmed -name "$1-sm_90a-*.cubin" | head -1)
  tail -c +65 "$f" > "/tmp/$1.cubin"; specs+=("/tmp/$1.cubin:$2:$3:$4:$5")
}
add rmsnorm-bf16-h2048-v8-t128-r1 rms 128 2048 128
add rmsnorm-bf16-h4096-v8-t128-r1 rms 128 4096 128
add fused_add_rmsnorm-bf16-h2048-v8-t256-r1 fused 128 2048 256
add fused_add_rmsnorm-bf16-h4096-v8-t256-r1 fused 128 4096 256
/tmp/decode_anatomy --flush "${specs[@]}" 2>&1 | grep normjit > "$R/anatomy-variants.txt"
echo "passes at $(( $(date +%s) - start )) s"; cat "$R/anatomy-variants.txt"
