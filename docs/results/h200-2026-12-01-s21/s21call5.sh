#!/usr/bin/env bash
# Device call 5 (session 21, at 93da6c5's kernels): rmsnorm 128 x 8192 isolated (behind Liger and
# torch.compile by 1.8 % in both of this session's tables) under other thread counts, clusters,
# split rows and no prefetch, interleaved, 100 samples. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s21call5.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 200 build-gpu/normjit bench --op rmsnorm --tokens 128,64,200 --hidden 8192 --reps 100 \
  --compare "default;tpr=512;tpr=1024;tpr=128;cluster=2;split=2;prefetch=none;default" > "$R/rows8192.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; grep -v "^#" "$R/rows8192.txt" | tail -n +3
