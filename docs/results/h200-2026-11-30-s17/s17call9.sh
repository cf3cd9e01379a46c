#!/usr/bin/env bash
# Device call 9 (session 17, at 147b4a4): occupancy declarations at the 3-D per-head shapes
# (two rows per thread, 48 registers: 10 CTAs of 128 threads an SM): declared 10 (what they
# hold) and 12 (40 registers), interleaved, two rounds. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s17call9.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nj=build-gpu/normjit
C() { $nj bench "$@" | grep -v "^device\|^op "; }
{
for round in 1 2; do
  C --op rmsnorm --hidden 128 --tokens 65536,221184,262144 --reps 60 --compare "default;minb=10;minb=12"
  C --op rmsnorm --hidden 256 --tokens 32768 --reps 60 --compare "default;minb=10;minb=12"
  C --op rmsnorm --hidden 64 --tokens 131072 --reps 60 --compare "default;minb=12;minb=16"
done
} > "$R/3d-minb-compare.txt" 2>&1
echo "at $(( $(date +%s) - start )) s"; cat "$R/3d-minb-compare.txt"
