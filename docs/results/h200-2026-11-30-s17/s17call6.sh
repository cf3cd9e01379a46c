#!/usr/bin/env bash
# Device call 6 (session 17, at 65ca7b3): occupancy declarations (launch bounds' min blocks) of the
# other bulk re-read and held kernels, after the 16384 re-read gained from declaring 3 CTAs an SM;
# two rounds, interleaved. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s17call6.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nj=build-gpu/normjit
C() { $nj bench "$@" | grep -v "^device\|^op "; }
{
for round in 1 2; do
  C --op rmsnorm --hidden 8192 --tokens 8192,16384,32768 --reps 40 --compare "default;minb=3;minb=2"
  C --op rmsnorm --hidden 4096 --tokens 8192,32768 --reps 40 --compare "default;minb=6;minb=4"
  C --op fused_add_rmsnorm --hidden 8192 --tokens 8192,32768 --reps 30 --compare "default;minb=4;minb=3"
  C --op fused_add_rmsnorm --hidden 4096 --tokens 8192,32768 --reps 30 --compare "default;minb=6;minb=8"
done
} > "$R/minb-compare.txt" 2>&1
echo "at $(( $(date +%s) - start )) s"; cat "$R/minb-compare.txt"
