#!/usr/bin/env bash
# Device call 5 (session 12): the GPU suite on d0c25a8+ (16-CTA clusters for the widest staged
# rows, the copy reference in bench --latency); wide rows with the new defaults in bf16 and fp32,
# fp32 against the rule before; the wide rows side by side with the peers if time is left.
# Carry: build-tmp .devdeps .whl cache/prewarmed.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s12call5.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 330 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
echo "suite rc=$? at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -12
grep -E "Failed|FAILED|failed" "$R/ctest-gpu.log" | head -20
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
B() { timeout 90 stdbuf -oL $nj bench --reps 12 "$@" 2>&1 | grep -E "^(rmsnorm|fused|device)|rror|n/a"; }
{
  echo "== bf16 defaults"
  B --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 32768,65536,131072,262144
  B --op rmsnorm,fused_add_rmsnorm --tokens 4096 --hidden 262144 --reps 6
  echo "== fp32 defaults, then the rule before (8 x 512 staged)"
  B --op rmsnorm,fused_add_rmsnorm --dtype fp32 --tokens 1024 --hidden 131072,262144
  B --op rmsnorm --dtype fp32 --tokens 1024 --hidden 131072 --config cluster=8,tpr=512,residency=3,loads=0
  B --op rmsnorm --dtype fp32 --tokens 1024 --hidden 262144 --config cluster=8,tpr=512,residency=3,loads=1
  B --op fused_add_rmsnorm --dtype fp32 --tokens 1024 --hidden 131072 --config cluster=8,tpr=512,residency=3,loads=1
} 2>&1 | tee "$R/wide-defaults.txt"
left=$(( 570 - ($(date +%s) - start) ))
echo "peers with ${left} s left"
if [ "$left" -gt 100 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 1024 \
    --hidden 32768,65536,131072,262144 --reps 20 --autotune-min-tokens 1000000 --csv "$R/peers-wide.csv" \
    > "$R/peers-wide.txt" 2> "$R/peers-wide-stderr.txt"
  echo "peers rc=$? at $(( $(date +%s) - start )) s"
  grep -E "^\||geomean|copy ceiling" "$R/peers-wide.txt"
fi
