#!/usr/bin/env bash
# Device call 7 (session 28): the new rule (2931945) where call 5 did not time it: gemma at
# 2304-2560 and rmsnorm at 2816 (352 vectors) and 3328 (416) from 16384 rows, the default against
# the held 64 x 2 it replaced and the other thread count. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s28call7.tgz r' EXIT
source scripts/gpu_build.sh
gpu_build "" normjit_cli > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
$nj bench --op gemma_rmsnorm,rmsnorm --tokens 16384,32768 --hidden 2304,2560,2816,3328 --reps 30 \
  --compare "default;tpr=64,rpb=2,residency=0,loads=3,minb=0;tpr=256,rpb=1,residency=2,loads=3,minb=8;tpr=128,rpb=1,residency=2,loads=3,minb=0" > "$R/rule-check.txt" 2>&1
echo "done at $(( $(date +%s) - start )) s"
grep -E "x[0-9]\.[0-9]{3}|FAILED|not valid" "$R/rule-check.txt" | awk '{print $1,$2,$3,$4,$5,$6,$11}'
