#!/usr/bin/env bash
# Device call 1 (session 12, prepared in session 11): the GPU suite on main (863e149's exit wait,
# the config memo, the paired host-overhead estimator: none yet run on the GPU); call 6's aborted
# test three times with its whole output; the exit wait against 255e7f6's templates (push, no
# wait), same run. Carry: build-tmp .devdeps .whl cache/prewarmed.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s12call1.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 330 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
echo "suite rc=$? at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -12
grep -E "host cost|worst" "$R/gpu-suite.txt"
export NORMJIT_CACHE_DIR=$(mktemp -d)
for i in 1 2 3; do
  timeout 60 build-gpu/tests/gpu/test_gpu "default configs at the row counts that switch kernels" > "$R/test-defaults-$i.txt" 2>&1
  echo "defaults test run $i rc=$?: $(grep -E '^(All tests|test cases|assertions)' "$R/test-defaults-$i.txt" | tr '\n' ' ')"
done
nj=build-gpu/normjit
B() { timeout "$1" stdbuf -oL $nj bench "${@:2}" 2>&1 | grep -E "^(rmsnorm|fused|device)|rror"; }
ab_set() {
  B 80 --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 65536,131072,262144 --reps 20
  B 40 --op rmsnorm,fused_add_rmsnorm --tokens 1,8,32 --hidden 8192,16384 --reps 50
}
{ echo "== exit wait (main)"; ab_set; } | tee "$R/exitwait-on.txt"
cp build-tmp/new/*.cuh kernel_templates/
source scripts/gpu_build.sh
gpu_build "nw-" normjit_cli || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
{ echo "== no exit wait (255e7f6 templates)"; ab_set; } | tee "$R/exitwait-off.txt"
cp build-tmp/exitwait/*.cuh kernel_templates/
echo "done at $(( $(date +%s) - start )) s"
