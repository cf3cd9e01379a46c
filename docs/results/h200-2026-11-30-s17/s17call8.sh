#!/usr/bin/env bash
# Device call 8 (session 17, at 147b4a4): threads per row at 32-512 rows of hidden 4096 (rmsnorm's
# t128 rule for more than kFewRowsMax rows was measured from 512 rows only), interleaved, two
# rounds. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s17call8.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nj=build-gpu/normjit
C() { $nj bench "$@" | grep -v "^device\|^op "; }
{
for round in 1 2; do
  C --op rmsnorm,gemma_rmsnorm --hidden 4096 --tokens 32,33,64,128,256,384,512 --reps 100 --compare "default;tpr=256;tpr=128;tpr=512"
  C --op fused_add_rmsnorm --hidden 4096 --tokens 32,128 --reps 100 --compare "default;tpr=128;tpr=512"
done
} > "$R/tpr4096-compare.txt" 2>&1
echo "at $(( $(date +%s) - start )) s"; cat "$R/tpr4096-compare.txt"
