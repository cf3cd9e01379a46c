#!/usr/bin/env bash
# Device call 3 (session 27): the re-read on 512 threads with the hints by pass (predicated
# loads) against the held defaults at more widths, dtypes and row counts before a rule takes it:
# bf16 rows of 832-1280 16-byte vectors, f16 and gemma at 7168 and 10240, fp32 rows of 896-1280
# 4-vectors; 8192-32768 rows. Two rounds. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s27call3.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
T=8192,12288,16384,32768
for round in 1 2; do
  timeout 200 $nj bench --op rmsnorm --tokens $T --hidden 6656,7168,8448,9216,10240 --reps 30 \
    --compare "default;tpr=512,vec=8,residency=2,loads=3,minb=0,pin_weight=0" > "$R/bf16-r$round.txt" 2>&1
  echo "rc=$? at $(( $(date +%s) - start )) s"
  timeout 120 $nj bench --op rmsnorm,gemma_rmsnorm --dtype f16 --tokens $T --hidden 7168,10240 --reps 30 \
    --compare "default;tpr=512,vec=8,residency=2,loads=3,minb=0,pin_weight=0" > "$R/f16-r$round.txt" 2>&1
  echo "rc=$? at $(( $(date +%s) - start )) s"
  timeout 120 $nj bench --op gemma_rmsnorm --tokens $T --hidden 7168,10240 --reps 30 \
    --compare "default;tpr=512,vec=8,residency=2,loads=3,minb=0,pin_weight=0" > "$R/gemma-r$round.txt" 2>&1
  echo "rc=$? at $(( $(date +%s) - start )) s"
  timeout 200 $nj bench --op rmsnorm --dtype fp32 --tokens $T --hidden 3584,4608,5120 --reps 30 \
    --compare "default;tpr=512,vec=4,residency=2,loads=3,minb=0,pin_weight=0;tpr=256,vec=4,residency=2,loads=3,minb=0,pin_weight=0" > "$R/fp32-r$round.txt" 2>&1
  echo "rc=$? at $(( $(date +%s) - start )) s"
done
for f in "$R"/*-r1.txt "$R"/*-r2.txt; do echo "## $(basename $f)"; grep -v "^device" "$f" | awk '{print $1,$2,$3,$4,$5,$6,$11}'; done
