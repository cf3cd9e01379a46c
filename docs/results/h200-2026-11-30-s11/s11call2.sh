#!/usr/bin/env bash
# Device call 2 (session 11): the cluster exchange by st.async pushes (working tree) against
# the two-barrier pull (HEAD, build-tmp/old): GPU tests of the new kernels, then the same bench
# set new / old / new.
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s11call2.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
nj=build-gpu/normjit
B() { timeout "$1" stdbuf -oL $nj bench "${@:2}" 2>&1 | grep -E "^(rmsnorm|fused|best|device)|rror"; }
run_set() {
  B 100 --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 65536,131072,262144 --reps 20
  B 60 --op rmsnorm,fused_add_rmsnorm --tokens 4096 --hidden 65536 --reps 20
  B 60 --op rmsnorm,fused_add_rmsnorm --tokens 1,8,32,128 --hidden 16384,32768 --reps 50
}
gpu_build "" normjit_cli test_gpu || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
timeout 250 build-gpu/tests/gpu/test_gpu "~[multigpu]" 2>&1 | tail -4 | tee "$R/test-gpu.txt"
{ echo "== push (new) 1"; run_set; } 2>&1 | tee "$R/new1.txt"
cp build-tmp/old/*.cuh kernel_templates/
gpu_build "o-" normjit_cli || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
{ echo "== pull (old)"; run_set; } 2>&1 | tee "$R/old.txt"
cp build-tmp/new/*.cuh kernel_templates/
gpu_build "n-" normjit_cli || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
{ echo "== push (new) 2"; run_set; } 2>&1 | tee "$R/new2.txt"
