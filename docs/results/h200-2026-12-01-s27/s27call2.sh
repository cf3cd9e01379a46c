#!/usr/bin/env bash
# Device call 2 (session 27): rmsnorm rows whose vector count is not a power of two (513-1023 and
# 1025-1280 vectors, held by default) re-read on 512 or 256 threads with the hints by pass, now
# that a part-filled item's hinted load is predicated (11f25a3). Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s27call2.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
C="default;tpr=512,vec=8,residency=2,loads=3,minb=0,pin_weight=0;tpr=256,vec=8,residency=2,loads=3,minb=0,pin_weight=0"
for H in 5120,5376,6144 7168,9216,10240; do
  timeout 240 $nj bench --op rmsnorm --tokens 2048,4096,8192,16384,32768 --hidden $H --reps 30 --compare "$C" > "$R/npot-reread-$H-call2.txt" 2>&1
  echo "rc=$? at $(( $(date +%s) - start )) s"; grep -v "^device" "$R/npot-reread-$H-call2.txt" | cut -c1-118
done
