#!/usr/bin/env bash
# Device call 9 (session 22, 90b5206): torch.compile max-autotune's plan at rmsnorm 8192 x 2048
# (call 8: 8 rows a CTA of 256 threads, 32 lanes a row, the row re-read with evict-last /
# evict-first hints, 62 registers) forced in our template, interleaved with the default.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s22call9.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 200 build-gpu/normjit bench --op rmsnorm --tokens 8192,32768 --hidden 2048 --reps 60 \
  --compare "default;tpr=32,rpb=8,residency=2,loads=3;tpr=32,rpb=8,residency=2,loads=3,minb=4;tpr=32,rpb=8,residency=0;tpr=64,rpb=4,residency=2,loads=3;default" > "$R/compare2048.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; grep -v "^#" "$R/compare2048.txt" | tail -n 20
