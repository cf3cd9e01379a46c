#!/usr/bin/env bash
# Device call 7 (session 26): the GPU tests of the predicated loads' other paths -- several rows
# per thread with load policies 2 and 3 (forced), every load policy at rows of part-filled items
# and several rows a block. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s26call7.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" test_gpu > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
export NORMJIT_CACHE_DIR=$(mktemp -d)
for t in "several rows per thread*" "forced configs: every load policy*"; do
  timeout 200 build-gpu/tests/gpu/test_gpu "$t" > "$R/t.txt" 2>&1
  echo "$t: rc=$? at $(( $(date +%s) - start )) s"; tail -3 "$R/t.txt"; cat "$R/t.txt" >> "$R/gpu-tests-call7.txt"
done
