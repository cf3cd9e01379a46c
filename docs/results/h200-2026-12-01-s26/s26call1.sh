#!/usr/bin/env bash
# Device call 1 (session 26): measured only, at 0bd1415 -- what torch.compile runs where it leads
# (rmsnorm 32768 x 10240 and x 7168, 512 x 14336: launches, PTX, cubins); every valid fp32 config at
# rows of 384 and 1536 vectors (hidden 1536, 6144), which keep the power-of-two rules; the
# side-by-side at 1-256 rows of 10240-14336. Carry: build-tmp .devdeps .whl
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s26call1.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 150 python3 scripts/peers/inductor_kernels.py --shapes rms:32768x10240,rms:32768x7168,rms:512x14336 \
  --modes default --launches --ptx-dir "$R/ptx" > "$R/inductor.txt" 2>&1
echo "inductor rc=$? at $(( $(date +%s) - start )) s"; grep -E "=====|kept config|launch:|eviction" "$R/inductor.txt" | cut -c1-220
nj=build-gpu/normjit
for s in "rmsnorm 8192 1536" "rmsnorm 8192 6144" "fused_add_rmsnorm 8192 1536" "fused_add_rmsnorm 8192 6144"; do
  set -- $s
  timeout 60 $nj bench --op $1 --dtype fp32 --tokens $2 --hidden $3 --reps 10 --sweep > "$R/sweep-f32-$1-$2x$3.txt" 2>&1
  echo "sweep fp32 $s rc=$? at $(( $(date +%s) - start )) s"; grep best: "$R/sweep-f32-$1-$2x$3.txt"
  awk 'NR>1 && $1!="best:"' "$R/sweep-f32-$1-$2x$3.txt" | sort -k6 -n | head -4 | awk '{print $5,$6,$10}'
done
left=$(( 570 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 1,8,32,128,256 \
  --hidden 10240,12288,14336 --autotune-min-tokens 100000000 --reps 30 --csv "$R/small-wide.csv" > "$R/small-wide.txt" 2> "$R/small-wide-stderr.txt"
echo "small-wide rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/small-wide.txt" | grep -v "^|---\|^| shape" | cut -c1-160
