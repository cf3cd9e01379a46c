#!/usr/bin/env bash
# Device call 6 (session 26): at cf601b8 (predicated hinted loads) -- max-autotune's plan at
# rmsnorm 8192 x 2048 (8 rows a CTA of 256 threads, re-read with the hints), 12.7-19.9 % slower in
# our template in session 22, when a block's rows past the end branched around the hinted loads;
# now predicated. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s26call6.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 240 build-gpu/normjit bench --op rmsnorm --tokens 8192,32768 --hidden 2048,4096 --reps 60 --compare \
  "default;tpr=32,rpb=8,residency=2,loads=3,minb=0,pin_weight=0;tpr=64,rpb=4,residency=2,loads=3,minb=0,pin_weight=0;tpr=32,rpb=8,residency=0,loads=3,minb=0,pin_weight=0;tpr=32,rpb=8,residency=0,loads=0,minb=0,pin_weight=0;default" \
  > "$R/plan2048-call6.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; grep -v "^device" "$R/plan2048-call6.txt" | cut -c1-125
