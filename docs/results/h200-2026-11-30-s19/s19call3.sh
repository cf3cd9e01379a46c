#!/usr/bin/env bash
# Device call 3 (session 19): call 2 found the slow state after cudaMalloc + cudaMemset of small
# buffers (G), not after malloc + free alone (H) or 64 MiB (B); here: new memory filled by a kernel
# (K), cudaMemset of old memory at 4 KiB / 1 MiB / 8 MiB (Z Y W), and what follows the slow state.
# Carry: build-tmp cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s19call3.tgz r' EXIT
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
nvcc -cubin -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/late.cubin scripts/decode_anatomy_late.cu || exit 1
cub() { f=$(find cache/prewarmed -name "$1-sm_90a-*.cubin" | head -1); tail -c +65 "$f" > "/tmp/$1.cubin"; echo "/tmp/$1.cubin"; }
S="nj_rms=$(cub rmsnorm-bf16-h4096-v8-t128-r1):rms:128:4096:128 nj_fused=$(cub fused_add_rmsnorm-bf16-h2048-v8-t256-r1):fused:128:2048:256 min_rms=/tmp/late.cubin:rms:128:4096:128:rms4096_t128 min_fused=/tmp/late.cubin:fused:128:2048:256:fused2048_t256"
for script in LTKTT LTZTT LTYTT LTWTT LTGTWTBTXT; do
  for fl in --flush; do
    echo "== $script $fl"
    timeout 60 /tmp/decode_anatomy $fl --script $script $S 2>&1 | grep -v "^us per\|: *$"
  done
done | tee "$R/script-bisect2.txt"
echo "done at $(( $(date +%s) - start )) s"
