#!/usr/bin/env bash
# Device call 10 (session 17, at 91613d8, kernels of 147b4a4): rmsnorm 16384 at 1024-4096 rows (the
# one >= 64 MiB shape under 97 % of a same-bytes copy) against re-read and held variants,
# interleaved, two rounds. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s17call10.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nj=build-gpu/normjit
C() { $nj bench "$@" | grep -v "^device\|^op "; }
{
for round in 1 2; do
  C --op rmsnorm --hidden 16384 --tokens 1024,2048,4096 --reps 50 --compare "default;tpr=512,residency=2,loads=3,minb=3;tpr=1024,residency=1,loads=0;tpr=1024,residency=2,loads=3;tpr=512,residency=1,loads=0;tpr=256,residency=1,minb=3"
done
} > "$R/mid16384-compare.txt" 2>&1
echo "at $(( $(date +%s) - start )) s"; cat "$R/mid16384-compare.txt"
