#!/usr/bin/env bash
# Device call 4 (session 26): the predicated hinted loads at rows of 4 items on 512 threads (call
# 3: 36 registers, 3 CTAs an SM, 3-11 % slower at 14336-15360), declared for 4 CTAs (32 registers,
# the four loads still in flight, sm_90a SASS): each template (new = predicated, old = 8abe787's)
# in its own process, default / minb=4 interleaved within it, two rounds. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s26call4.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
for round in 1 2; do
  for t in new old; do
    for spec in "bf16 512,1024,8192,32768 13312,14336,15360" "fp32 512,8192,32768 7168"; do
      set -- $spec
      NORMJIT_TEMPLATE_DIR=build-tmp/tpl_$t timeout 100 build-gpu/normjit bench --cache-dir $(mktemp -d) --op rmsnorm \
        --dtype $1 --tokens $2 --hidden $3 --reps 30 --compare "default;minb=4" > "$R/minb4-$t-$1-r$round.txt" 2>&1
      echo "== $t $1 round $round rc=$? at $(( $(date +%s) - start )) s"
      grep -v "^device-to-device\|^op " "$R/minb4-$t-$1-r$round.txt" | awk '{printf "%s %s %s %s %s x%s\n", $2, $3, $4, $5, $6, $11}' | sed 's/xx/x/'
    done
  done
done
