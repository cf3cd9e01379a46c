#!/usr/bin/env bash
# Device call 6 (session 13): same-process A/B of df656a9's templates (cur: L1 hints + weight
# evict-last) against l1hint (L1 hints, weight ld.global.nc) and old (4d7c9aa), at the shapes
# that moved between calls 1 and 5 (wide rows, late-weight and held rows), then the re-read
# rule candidate at 16384. Carry: build-tmp .devdeps.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s13call6.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
nj=build-gpu/normjit
V="cur=base l1hint=build-tmp/tpl-l1hint old=build-tmp/tpl-old"
AB() { left=$(( 235 - ($(date +%s) - start) )); [ $left -lt 10 ] && { echo "(skipped: out of time)"; return; }
       timeout $left python3 scripts/template_ab.py --normjit $nj $V -- --reps 20 "$@" 2>&1; }
{
  echo "== wide"; AB --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 131072,262144
  echo "at $(( $(date +%s) - start )) s"
  echo "== 8192"; AB --op rmsnorm,fused_add_rmsnorm --tokens 32,128,512,32768 --hidden 8192
  echo "at $(( $(date +%s) - start )) s"
  echo "== 16384"; AB --op rmsnorm,fused_add_rmsnorm --tokens 512,2048 --hidden 16384
  echo "at $(( $(date +%s) - start )) s"
  echo "== 16384 re-read t512"; AB --op rmsnorm --tokens 8192,32768 --hidden 16384 --config tpr=512,residency=2,loads=3
  echo "at $(( $(date +%s) - start )) s"
} 2>&1 | tee "$R/weight-ab.txt"
