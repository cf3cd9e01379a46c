#!/usr/bin/env bash
# Device call 3 (session 12): the fused add at hidden 262144 on 16-CTA clusters (call 2: 256
# threads 595 us against the default's 646-648 at 1024 rows), by threads and copy policy, bf16
# and fp32, 1024 and 4096 rows; decode graphs under forced configs (threads, late weight, split)
# to find the 0.3-0.5 us between the 128-row norms and a same-bytes copy. Carry: build-tmp .devdeps.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s12call3.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
B() { timeout "$1" stdbuf -oL $nj bench "${@:2}" 2>&1 | grep -E "^(rmsnorm|fused|device)|rror|n/a"; }
{
  for t in 1024 4096; do
    W="--op fused_add_rmsnorm --tokens $t --hidden 262144 --reps 12"
    echo "== $t rows: default"; B 90 $W
    for c in "tpr=256,loads=0" "tpr=256,loads=1" "tpr=128,loads=0" "tpr=128,loads=1" "tpr=512,loads=1"; do
      echo "== $t rows: cluster 16 $c"; B 90 $W --config cluster=16,residency=3,$c
    done
    echo "== $t rows: default again"; B 90 $W
  done
  echo "== fp32 1024 rows: default, cluster 16 tpr 256 / 512"
  B 90 --op fused_add_rmsnorm --dtype fp32 --tokens 1024 --hidden 262144 --reps 12
  B 90 --op fused_add_rmsnorm --dtype fp32 --tokens 1024 --hidden 262144 --reps 12 --config cluster=16,residency=3,tpr=256,loads=1
  B 90 --op fused_add_rmsnorm --dtype fp32 --tokens 1024 --hidden 262144 --reps 12 --config cluster=16,residency=3,tpr=512,loads=1
} 2>&1 | tee "$R/fused-262144.txt"
echo "wide done at $(( $(date +%s) - start )) s"
for c in tpr=512 tpr=64 residency=1 split=2 rpb=2; do
  timeout 100 $nj bench --latency --config $c > "$R/latency-$c.txt" 2>&1
  echo "== latency --config $c rc=$?"; grep -E " x " "$R/latency-$c.txt" | awk '$2<=128' | cut -c1-60
done
echo "done at $(( $(date +%s) - start )) s"
