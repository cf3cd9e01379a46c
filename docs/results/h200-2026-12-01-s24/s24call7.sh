#!/usr/bin/env bash
# Device call 7 (session 24): the GPU suite at the final kernel tree (rows whose vector count is
# not a power of two, occupancy floors), the new defaults against the configs they replaced, and
# the side-by-side at model widths 2560-7168. Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s24call7.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 330 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
nj=build-gpu/normjit
{
timeout 40 $nj bench --op rmsnorm --tokens 8192,32768 --hidden 3584,5120,7168 --reps 30 --compare "default;tpr=256,residency=2,loads=3;tpr=512,residency=2,loads=3;default" 2>&1 | tail -n +2
timeout 30 $nj bench --op fused_add_rmsnorm --tokens 2048,32768 --hidden 5120,6144 --reps 30 --compare "default;tpr=512,residency=0,minb=2;default" 2>&1 | tail -n +3
} > "$R/npot-confirm.txt"
echo "confirm at $(( $(date +%s) - start )) s"; grep -v "^op" "$R/npot-confirm.txt" | awk '{print $1,$3,$4,$5,$6,$NF}'
left=$(( 585 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 512,2048,8192,32768 \
  --hidden 2560,3584,5120,7168 --autotune-min-tokens 100000000 --reps 20 --csv "$R/models.csv" > "$R/models.txt" 2> "$R/models-stderr.txt"
echo "models rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/models.txt" | grep -v "^|---\|^| shape" | tail -40
