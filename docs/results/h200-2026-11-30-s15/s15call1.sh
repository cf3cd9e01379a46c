#!/usr/bin/env bash
# Device call 1 (session 15): do the weight loads that ptxas schedules after the row's data has
# landed cost a DRAM round trip in isolated calls? Variants (build-tmp/tpl15-*, s15prep.py):
#   pin        the held row's first word takes `| (weight word & opaque 0)`, so ptxas must issue
#              the weight loads before it consumes the row
#   pinacc     pin + the sum of squares in 4 interleaved FMA chains
#   pinaccdiv  pinacc + DIV_RN by a power-of-two hidden as a multiply by 1/H
# Then graph latency for base/pin/pinaccdiv, bulk rows, and the rmsnorm 32768 re-read with hints.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s15call1.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
T=build-tmp
AB() { python3 scripts/template_ab.py --normjit $nj "$@"; }
{
  echo "== small and mid rows"
  timeout 260 python3 scripts/template_ab.py --normjit $nj base pin=$T/tpl15-pin pinacc=$T/tpl15-pinacc pinaccdiv=$T/tpl15-pinaccdiv base2=base -- \
    --op rmsnorm,fused_add_rmsnorm --tokens 1,8,32,128,512,2048 --hidden 2048,4096,8192,16384 --reps 60
  echo "at $(( $(date +%s) - start )) s"
} 2>&1 | tee "$R/pin-ab.txt" | tail -3
{
  echo "== bulk rows"
  timeout 100 python3 scripts/template_ab.py --normjit $nj base pin=$T/tpl15-pin pinaccdiv=$T/tpl15-pinaccdiv -- \
    --op rmsnorm,fused_add_rmsnorm --tokens 8192,32768 --hidden 2048,4096,8192,16384 --reps 20
  echo "at $(( $(date +%s) - start )) s"
} 2>&1 | tee "$R/pin-bulk.txt" | tail -2
for v in base pin pinaccdiv base2; do
  left=$(( 560 - ($(date +%s) - start) )); [ $left -gt 40 ] || break
  d=""; case $v in pin|pinaccdiv) d=$PWD/$T/tpl15-$v;; esac
  c=$(mktemp -d)
  echo "== latency $v" >> "$R/pin-latency.txt"
  NORMJIT_TEMPLATE_DIR=$d timeout $(( left < 90 ? left : 90 )) $nj bench --latency --cache-dir $c >> "$R/pin-latency.txt" 2>&1
  echo "latency $v at $(( $(date +%s) - start )) s"
done
left=$(( 560 - ($(date +%s) - start) ))
if [ $left -gt 40 ]; then
  { for i in 1 2; do echo "-- default"; $nj bench --reps 20 --op rmsnorm --tokens 1024,4096,8192 --hidden 32768 | grep -E "^rmsnorm"
    echo "-- hinted"; $nj bench --reps 20 --op rmsnorm --tokens 1024,4096,8192 --hidden 32768 --config tpr=1024,residency=2,loads=3 | grep -E "^rmsnorm"; done; } > "$R/reread-32768.txt" 2>&1
fi
echo "done at $(( $(date +%s) - start )) s"
