#!/usr/bin/env bash
# Device call 5 (session 16): which griddepcontrol instruction costs the many-CTA kernels:
# wait only, trigger only, neither, against base; 64-thread CTAs (t16r4) and the defaults.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s16call5.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
AB() { python3 scripts/template_ab.py --normjit $nj base wait=build-tmp/tpl16-waitonly trig=build-tmp/tpl16-trigonly none=build-tmp/tpl16-nopdl2 -- "$@"; }
{
for round in 1 2; do
  AB --op rmsnorm --tokens 65536 --hidden 128 --reps 40 --config tpr=16,rpb=4
  AB --op rmsnorm --tokens 65536 --hidden 128 --reps 40 --config tpr=16,rpb=4 --no-pdl
  AB --op rmsnorm --tokens 65536,221184 --hidden 128 --reps 40
  AB --op rmsnorm,fused_add_rmsnorm --tokens 512,2048 --hidden 2048 --reps 40
done
} > "$R/which.txt" 2>&1
cat "$R/which.txt"
echo "done at $(( $(date +%s) - start )) s"
