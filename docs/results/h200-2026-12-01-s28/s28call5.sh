#!/usr/bin/env bash
# Device call 5 (session 28): call 4's two leads over more widths and dtypes, interleaved compares:
# (a) rmsnorm rows of 257-448 vectors at 256-4096 rows held on 128 threads against the default's 256;
# (b) from 8192 rows re-read on 256 threads (8 CTAs an SM) or 128 against the default's 64 x 2.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s28call5.tgz r' EXIT
source scripts/gpu_build.sh
gpu_build "" normjit_cli > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
for round in 1 2; do
  $nj bench --op rmsnorm --dtype bf16,f16 --tokens 256,512,1024,2048,4096 --hidden 2304,2560,2816,3072,3584 --reps 40 \
    --compare "default;tpr=128,rpb=1,residency=0,loads=0,minb=0" > "$R/t128-r$round.txt" 2>&1
  echo "a$round at $(( $(date +%s) - start )) s"
done
$nj bench --op rmsnorm --dtype bf16,f16 --tokens 8192,16384,32768 --hidden 2304,2560,3072,3584 --reps 30 \
  --compare "default;tpr=256,rpb=1,residency=2,loads=3,minb=8;tpr=128,rpb=1,residency=2,loads=3,minb=0" > "$R/reread-r1.txt" 2>&1
echo "b at $(( $(date +%s) - start )) s"
$nj bench --op gemma_rmsnorm --tokens 8192,16384,32768 --hidden 2560,3072 --reps 30 \
  --compare "default;tpr=256,rpb=1,residency=2,loads=3,minb=8" > "$R/reread-gemma.txt" 2>&1
echo "done at $(( $(date +%s) - start )) s"
for f in "$R"/t128-r1.txt "$R"/reread-*.txt; do echo "== $(basename $f)"; grep -E "x[0-9]\.[0-9]{3}|FAILED|not valid" "$f" | grep -v default | awk '{print $1,$2,$3,$4,$5,$6,$11}'; done
grep -E "x[0-9]\.[0-9]{3}" "$R/t128-r2.txt" | grep -v default | awk '{print $2,$3,$4,$11}' | paste -sd' ' | fold -w 2000
