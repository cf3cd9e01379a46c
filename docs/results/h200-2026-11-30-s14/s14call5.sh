#!/usr/bin/env bash
# Device call 5 (session 14): rows per block, never swept (--sweep keeps the heuristic's), at
# hidden 2048 (torch.compile max-autotune runs 32768 x 2048 as 4 rows of 128 threads per CTA and
# leads by 1 %) and 4096. Forced configs in separate processes, the default twice. Carry: build-tmp .devdeps.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s14call5.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nj=build-gpu/normjit
B() { timeout 40 $nj bench --reps 40 "$@" 2>&1 | grep -E "^(rmsnorm|fused)"; }
{
  echo "built at $(( $(date +%s) - start )) s"
  for op in rmsnorm fused_add_rmsnorm; do
    echo "== $op 2048"
    B --op $op --tokens 8192,32768 --hidden 2048
    for c in tpr=128,rpb=2 tpr=128,rpb=4 tpr=128,rpb=8 tpr=64,rpb=4 tpr=64,rpb=8 tpr=256,rpb=2; do
      B --op $op --tokens 8192,32768 --hidden 2048 --config $c
    done
    B --op $op --tokens 8192,32768 --hidden 2048
  done
  echo "== rmsnorm 4096"
  B --op rmsnorm --tokens 8192,32768 --hidden 4096
  for c in tpr=256,rpb=2,residency=2,loads=3 tpr=256,rpb=4,residency=2,loads=3 tpr=128,rpb=4 tpr=256,rpb=2; do
    B --op rmsnorm --tokens 8192,32768 --hidden 4096 --config $c
  done
  B --op rmsnorm --tokens 8192,32768 --hidden 4096
  echo "done at $(( $(date +%s) - start )) s"
} 2>&1 | tee "$R/rpb.txt"
