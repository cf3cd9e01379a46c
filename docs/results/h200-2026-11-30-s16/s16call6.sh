#!/usr/bin/env bash
# Device call 6 (session 16): the late PDL trigger removed (notrig: a block's exit is its trigger)
# against base, isolated (2-D defaults, wide rows, 3-D shapes) and per launch in CUDA graphs; and
# two rows per thread (NORMJIT_EXP_RPT=2, working-tree experiment) on notrig at the 3-D shapes.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s16call6.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
AB() { python3 scripts/template_ab.py --normjit $nj base notrig=build-tmp/tpl16-notrig -- "$@"; }
{
  AB --op rmsnorm,fused_add_rmsnorm --tokens 128,512,2048,8192,32768 --hidden 2048,4096,8192,16384 --reps 30
  AB --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 32768,65536 --reps 20
  AB --op rmsnorm --tokens 4096,65536,221184,262144 --hidden 128 --reps 40
  AB --op rmsnorm --tokens 4096,32768,131072 --hidden 256 --reps 40
} > "$R/notrig-ab.txt" 2>&1
echo "ab at $(( $(date +%s) - start )) s"; grep rmsnorm "$R/notrig-ab.txt"
B() { # rpt shapes...
  local rpt=$1; shift
  NORMJIT_EXP_RPT=$rpt NORMJIT_TEMPLATE_DIR=build-tmp/tpl16-notrig $nj bench --cache-dir $(mktemp -d) --reps 40 --op rmsnorm "$@" 2>&1 | grep -E "^rmsnorm|rror" | sed "s/^/rpt$rpt notrig /"
}
{
for round in 1 2; do
  B 1 --tokens 4096,65536,221184,262144 --hidden 128
  B 2 --tokens 4096,65536,221184,262144 --hidden 128
  B 1 --tokens 4096,32768,131072 --hidden 256
  B 2 --tokens 4096,32768,131072 --hidden 256 --config tpr=16,rpb=4
  B 2 --tokens 4096,32768,131072 --hidden 256
done
} > "$R/rpt.txt" 2>&1
cat "$R/rpt.txt"
export NORMJIT_LIBRARY=$PWD/build-gpu/libnormjit.so PYTHONPATH=$PWD/python
G() { local tag=$1; shift; env "$@" NORMJIT_CACHE_DIR=$(mktemp -d) timeout 60 python3 build-tmp/s16graph.py $tag 1x4096,128x4096,512x2048,2048x2048,256x8192,1024x128,4096x128,4096x256,65536x128 2>&1 | grep graph; }
{
for round in 1 2; do
  G base X=1
  G notrig NORMJIT_TEMPLATE_DIR=build-tmp/tpl16-notrig
done
} > "$R/graph.txt" 2>&1
cat "$R/graph.txt"
echo "done at $(( $(date +%s) - start )) s"
