#!/usr/bin/env bash
# Device call 2 (session 18): normjit's own decode kernels (cubins from a fresh cache filled by
# `bench --latency`) launched by scripts/decode_anatomy.cu beside its minimal kernels, with and
# without an L2 flush before each replay. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s18call2.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
: nobuild
nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
echo "built at $(( $(date +%s) - start )) s"
C=cache/prewarmed
: skip
echo "latency at $(( $(date +%s) - start )) s"; grep -E "128 x|32 x 8192" "$R/latency.txt"
find $C -name "*.cubin" | sed 's|.*/||' | sort > "$R/cubins.txt"
specs=()
add() {  # slug op rows hidden threads
  f=$(find $C -name "$1-sm_90a-*.cubin" | head -1)
  [ -n "$f" ] || { echo "no $1"; return; }
  tail -c +65 "$f" > "/tmp/$1.cubin"; specs+=("/tmp/$1.cubin:$2:$3:$4:$5")
}
add rmsnorm-bf16-h2048-v8-t128-r1 rms 128 2048 128
add rmsnorm-bf16-h4096-v8-t128-r1 rms 128 4096 128
add rmsnorm-bf16-h8192-v8-t256-r1 rms 128 8192 256
add fused_add_rmsnorm-bf16-h2048-v8-t256-r1 fused 128 2048 256
add fused_add_rmsnorm-bf16-h4096-v8-t256-r1 fused 128 4096 256
/tmp/decode_anatomy "${specs[@]}" > "$R/anatomy-noflush.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/anatomy-noflush.txt"
/tmp/decode_anatomy --flush "${specs[@]}" > "$R/anatomy-flush.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/anatomy-flush.txt"
