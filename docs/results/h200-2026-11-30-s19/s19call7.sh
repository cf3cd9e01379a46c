#!/usr/bin/env bash
# Device call 7 (session 19, at a0cb617): decode graphs under forced config fields, one process
# each (bench --latency, buffers filled by cuMemsetD8): which field moves the fused add's
# 128 x 2048 and rmsnorm's 128 x 4096 / 32 x 8192 (normjit's fused kernel ran 0.33 us behind a
# minimal one on fresh buffers in call 1). Carry: .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
for c in default residency=1 pin_weight=1 loads=1 loads=2 stores=1 keep_out=1 tpr=128 default2; do
  case $c in default*) a=();; *) a=(--config $c);; esac
  timeout 60 build-gpu/normjit bench --latency "${a[@]}" > "$R/latency-$c.txt" 2>&1
  echo "== $c rc=$?"
  grep -E "^    (rmsnorm|fused_add_rmsnorm) +(128 x (2048|4096)|32 x 8192) " "$R/latency-$c.txt" | sed 's/static weight.*copy/copy/'
done
