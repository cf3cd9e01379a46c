#!/usr/bin/env bash
# Device call 2 (session 19): which event turns the decode kernels slow when every graph replay
# follows an L2 flush (call 1: after step F, allocating, filling and freeing buffers). One
# process per step script of scripts/decode_anatomy.cu --script. Carry: build-tmp cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s19call2.tgz r' EXIT
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
nvcc -cubin -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/late.cubin scripts/decode_anatomy_late.cu || exit 1
cub() { f=$(find cache/prewarmed -name "$1-sm_90a-*.cubin" | head -1); tail -c +65 "$f" > "/tmp/$1.cubin"; echo "/tmp/$1.cubin"; }
S="nj_rms=$(cub rmsnorm-bf16-h4096-v8-t128-r1):rms:128:4096:128 nj_fused=$(cub fused_add_rmsnorm-bf16-h2048-v8-t256-r1):fused:128:2048:256 min_rms=/tmp/late.cubin:rms:128:4096:128:rms4096_t128 min_fused=/tmp/late.cubin:fused:128:2048:256:fused2048_t256"
for script in LTTTTTTTTFTT LTPHTPT LTGTT LTBTT LTSTXTT LTCFCPTNC; do
  for fl in --flush ""; do
    echo "== $script $fl"
    timeout 60 /tmp/decode_anatomy $fl --script $script $S 2>&1 | grep -v "^us per\|: *$"
  done
done | tee "$R/script-bisect.txt"
echo "done at $(( $(date +%s) - start )) s"
