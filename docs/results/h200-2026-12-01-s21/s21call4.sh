#!/usr/bin/env bash
# Device call 4 (session 21, final kernels as call 3): the side-by-side table again with 100
# samples a shape (call 3 took 40), the 3-D table likewise, and occupancy floors on the
# head_dim-128 four-rows kernel (95 registers). Carry: build-tmp .devdeps .whl
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s21call4.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 60 build-gpu/normjit bench --op rmsnorm --tokens 221184,262144 --hidden 128 --reps 40 --compare "default;minb=12;minb=16;default" > "$R/minb-128.txt" 2>&1
echo "minb rc=$?"; grep -v "^#" "$R/minb-128.txt" | tail -n +3
left=$(( 470 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 100 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
python3 scripts/peers/targets.py "$R/peers-table.csv" | head -30
left=$(( 580 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 100 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
echo "done at $(( $(date +%s) - start )) s"
