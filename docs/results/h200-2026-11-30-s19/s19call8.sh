#!/usr/bin/env bash
# Device call 8 (session 19): which step from a copy to the norm the process state (cudaMemset of
# new small buffers, step G) slows: decode_anatomy --script with step A (the anatomy of
# 128 x 4096 t128 and 128 x 2048 t256) before and after G, with the flush; controls without G and
# without the flush. Carry: build-tmp cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
cub() { f=$(find cache/prewarmed -name "$1-sm_90a-*.cubin" | head -1); tail -c +65 "$f" > "/tmp/$1.cubin"; echo "/tmp/$1.cubin"; }
S="nj_rms=$(cub rmsnorm-bf16-h4096-v8-t128-r1):rms:128:4096:128 nj_fused=$(cub fused_add_rmsnorm-bf16-h2048-v8-t256-r1):fused:128:2048:256"
for run in "--flush LTAGTA" "--flush LTATA" "LTAGTA"; do
  echo "== $run"
  set -- $run
  if [ $# -eq 2 ]; then timeout 100 /tmp/decode_anatomy $1 --script $2 $S; else timeout 100 /tmp/decode_anatomy --script $1 $S; fi 2>&1 | grep -v "^us per\|: *$"
done | tee "$R/anatomy-state.txt"
