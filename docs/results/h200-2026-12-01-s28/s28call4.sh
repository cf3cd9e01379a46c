#!/usr/bin/env bash
# Device call 4 (session 28): interleaved compares (bench --compare) of what call 3's sweeps put
# ahead of the heuristic: rmsnorm rows of 320-448 vectors below 8192 rows on 64 threads x 2 rows,
# 3072 x 16384 re-read, 5376/7168 x 2048 streaming loads, the fused add 7168 on 128 threads or with
# the weight late. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s28call4.tgz r' EXIT
source scripts/gpu_build.sh
gpu_build "" normjit_cli > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
for round in 1 2; do
  $nj bench --op rmsnorm --dtype bf16,f16 --tokens 512,1024,2048,4096 --hidden 2560,3072,3584 --reps 40 \
    --compare "default;tpr=64,rpb=2,residency=0,loads=0,minb=0;tpr=128,rpb=1,residency=0,loads=0,minb=0" > "$R/t64-r$round.txt" 2>&1
  echo "A$round at $(( $(date +%s) - start )) s"
done
$nj bench --op rmsnorm --tokens 8192,16384,32768 --hidden 3072 --reps 30 \
  --compare "default;tpr=256,rpb=1,residency=2,loads=3,minb=8;tpr=128,rpb=1,residency=2,loads=3,minb=0" > "$R/reread3072.txt" 2>&1
echo "B at $(( $(date +%s) - start )) s"
$nj bench --op rmsnorm --tokens 2048,4096 --hidden 5376,7168 --reps 40 \
  --compare "default;tpr=128,rpb=1,residency=1,loads=1,minb=0;tpr=256,rpb=1,residency=0,loads=1,minb=0" > "$R/stream.txt" 2>&1
echo "D at $(( $(date +%s) - start )) s"
$nj bench --op fused_add_rmsnorm --tokens 2048,16384 --hidden 7168 --reps 30 \
  --compare "default;tpr=128,rpb=1,residency=0,loads=0,minb=0;tpr=512,rpb=1,residency=1,stores=1,minb=0" > "$R/fused7168.txt" 2>&1
echo "C at $(( $(date +%s) - start )) s"
for f in "$R"/*.txt; do echo "== $(basename $f)"; grep -E "x[0-9]\.[0-9]{3}|FAILED|not valid" "$f" | awk '{print $1,$2,$3,$4,$5,$6,$11,$14}'; done
