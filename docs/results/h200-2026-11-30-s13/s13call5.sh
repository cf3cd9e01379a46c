#!/usr/bin/env bash
# Device call 5 (session 13): the GPU suite on df656a9 (L1 eviction hints, weight evict-last),
# the side-by-side table, the wide rows, then forced re-read configs with the new hints.
# Carry: build-tmp .devdeps .whl cache/prewarmed.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s13call5.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 330 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
echo "suite rc=$? at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -12
grep -E "tests passed|Failed|FAILED" "$R/ctest-gpu.log" | tail -5
REBUILD=0 timeout 200 bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
tail -4 "$R/peers-table.txt"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
timeout 60 $nj bench --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 32768,65536,131072,262144 --reps 15 > "$R/wide.txt" 2>&1
echo "wide at $(( $(date +%s) - start )) s"; cat "$R/wide.txt"
B() { timeout 40 $nj bench --op rmsnorm --reps 30 "$@" 2>&1 | grep -E "^rmsnorm|rror"; }
{
  for c in "" tpr=512,residency=2,loads=3 tpr=1024,residency=2,loads=3; do
    [ $(( $(date +%s) - start )) -gt 540 ] && break
    echo "== 16384 ${c:-default}"; B --tokens 2048,8192,32768 --hidden 16384 ${c:+--config $c}
  done
  for c in "" tpr=256,residency=2,loads=3 tpr=1024,residency=2,loads=3 tpr=512,residency=0,loads=0; do
    [ $(( $(date +%s) - start )) -gt 560 ] && break
    echo "== 8192 ${c:-default}"; B --tokens 8192,32768 --hidden 8192 ${c:+--config $c}
  done
} > "$R/forced.txt" 2>&1
cat "$R/forced.txt"
echo "done at $(( $(date +%s) - start )) s"
