#!/usr/bin/env bash
# Device call 5 (session 22, ed98092): rmsnorm 32768's re-read rows under other thread counts,
# occupancy floors and load policies (pairs now on the plain re-read), interleaved in one process.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s22call5.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 300 build-gpu/normjit bench --op rmsnorm --tokens 1024,1536,2048,4096 --hidden 32768 --reps 60 \
  --compare "default;tpr=512;tpr=512,minb=4;tpr=512,loads=3;tpr=256;tpr=1024,loads=3;tpr=1024,loads=0;default" > "$R/compare32768.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; grep -v "^#" "$R/compare32768.txt" | tail -n 40
