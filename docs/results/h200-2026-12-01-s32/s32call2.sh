#!/usr/bin/env bash
# Device call 2 (session 32, f21090b's kernels): occupancy raised by min_blocks on held rows (does
# more CTAs an SM slow them, as reconvert's did?), then the side-by-side tables: the 64-shape grid
# with its targets, the wide rows at 1024 tokens, the 3-D table.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s32call2
build_cli || exit 1
show() { grep -E "x[01]\.[0-9]+" "$R/$1.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'; }
call_deadline=140
bench_compare occ128 rmsnorm bf16 65536,221184 128 "default;minb=12;minb=16"
show occ128
bench_compare occ7168 rmsnorm bf16 512,2048 7168 "default;minb=6;minb=7"
show occ7168
REBUILD=1 timeout 330 bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(elapsed) s"
python3 scripts/peers/targets.py "$R/peers-table.csv" > "$R/targets.txt" 2>&1; head -30 "$R/targets.txt"
left=$(( 470 - $(elapsed) ))
REBUILD=0 timeout $(( left < 110 ? left : 110 )) bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 1024 \
  --hidden 32768,65536,131072,262144 --reps 20 --autotune-min-tokens 1000000 --csv "$R/wide.csv" > "$R/wide.txt" 2> "$R/wide-stderr.txt"
echo "wide rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/wide.txt" | tail -12
left=$(( 585 - $(elapsed) ))
if [ "$left" -gt 50 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
  echo "3d rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
fi
echo "done at $(elapsed) s"
