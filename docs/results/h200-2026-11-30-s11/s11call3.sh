#!/usr/bin/env bash
# Device call 3 (session 11): the push exchange (working tree): every GPU ctest; then where the
# cheaper exchange may move the rules: clusters for a few rows (isolated and per graph launch)
# and rows of 32768 at 1024-2048 rows.
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s11call3.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
nj=build-gpu/normjit
B() { timeout "$1" stdbuf -oL $nj bench "${@:2}" 2>&1 | grep -E "^(rmsnorm|fused|best|device)|rror|fit"; }
gpu_build "" normjit normjit_cli test_gpu test_multigpu || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
t0=$(date +%s)
ctest --test-dir build-gpu -L gpu --output-on-failure -j 8 --timeout 300 >"$R/ctest-gpu.log" 2>&1
echo "ctest rc=$? in $(( $(date +%s) - t0 )) s"; grep -E "tests passed|tests failed|Failed|Timeout" "$R/ctest-gpu.log" | tail -8
{
for c in "" "--config cluster=2" "--config cluster=4" "--config cluster=8"; do
  echo "== isolated few rows $c"
  B 60 --op rmsnorm,fused_add_rmsnorm --tokens 1,8,32,128 --hidden 4096,8192,16384 --reps 50 $c
done
for c in "" "--config cluster=2,residency=3,tpr=512" "--config cluster=2,tpr=512" "--config cluster=2,tpr=1024" "--config cluster=4,tpr=256" "--config cluster=4,tpr=512"; do
  echo "== 32768 $c"
  B 60 --op rmsnorm,fused_add_rmsnorm --tokens 1024,2048 --hidden 32768 --reps 20 $c
done
} 2>&1 | tee "$R/explore.txt"
for c in "" "--config cluster=2" "--config cluster=4"; do
  echo "== latency $c"
  timeout 120 $nj bench --latency $c 2>&1
done > "$R/latency.txt" 2>&1
grep -E "==|overhead| x |fit|rror" "$R/latency.txt"
