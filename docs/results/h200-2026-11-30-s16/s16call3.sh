#!/usr/bin/env bash
# Device call 3 (session 16): what a CTA costs in the small-row (3-D) kernels: 65536 x 128 and
# 32768 x 256 at CTA shapes of 64-128 threads, launched with and without the PDL attribute, and
# with griddepcontrol compiled out (nopdl). Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s16call3.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
{
for round in 1 2; do
  for c in tpr=8,rpb=16 tpr=8,rpb=8 tpr=16,rpb=4 tpr=16,rpb=8 tpr=4,rpb=32; do
    echo "-- $c (round $round)"
    python3 scripts/template_ab.py --normjit $nj base nopdl=build-tmp/tpl16-nopdl -- --op rmsnorm --tokens 65536 --hidden 128 --reps 40 --config $c | grep rmsnorm
    python3 scripts/template_ab.py --normjit $nj base nopdl=build-tmp/tpl16-nopdl -- --op rmsnorm --tokens 65536 --hidden 128 --reps 40 --config $c --no-pdl | grep rmsnorm | sed 's/^/no-pdl launch /'
  done
done
} > "$R/pdl-cta.txt" 2>&1
cat "$R/pdl-cta.txt"
echo "done at $(( $(date +%s) - start )) s"
