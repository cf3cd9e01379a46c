#!/usr/bin/env bash
# Device call 4 (session 13): why torch.compile max-autotune's rmsnorm (1024 threads x 16-byte
# loads, re-read with L2 hints: the same memory plan as our t1024 reload-ldhinted) is faster.
# A: template variants (L1 eviction hints on the hinted loads; the weight read with an L2
#    evict-last hint instead of ld.global.nc; both), default and forced t1024 re-read.
# B: the PDL instructions: base vs no griddepcontrol at all, both launched without PDL.
# C: the side-by-side harness with normjit with and without the PDL attribute.
# Carry: build-tmp .devdeps .whl.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s13call4.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli || exit 1
nj=build-gpu/normjit
AB() { timeout 150 python3 scripts/template_ab.py --normjit $nj "$@" 2>&1; }
V="base l1hint=build-tmp/tpl-l1hint wl2=build-tmp/tpl-wl2 l1w=build-tmp/tpl-l1w base2=base"
{
  echo "== A default"; AB $V -- --op rmsnorm --reps 30 --tokens 512,2048,8192,32768 --hidden 16384
  AB $V -- --op rmsnorm --reps 30 --tokens 8192,32768 --hidden 4096,8192
  echo "at $(( $(date +%s) - start )) s"
  echo "== A forced tpr=1024,residency=2,loads=3"; AB $V -- --op rmsnorm --reps 30 --tokens 2048,8192,32768 --hidden 16384 --config tpr=1024,residency=2,loads=3
  echo "at $(( $(date +%s) - start )) s"
  echo "== B --no-pdl: base vs no griddepcontrol"
  AB base nopdl=build-tmp/tpl-nopdl base2=base -- --op rmsnorm,fused_add_rmsnorm --reps 30 --tokens 2048,8192,32768 --hidden 4096,16384 --no-pdl
  echo "at $(( $(date +%s) - start )) s"
} 2>&1 | tee "$R/hints-ab.txt"
left=$(( 560 - ($(date +%s) - start) ))
echo "C with $left s left"
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 512,2048,8192,32768 --hidden 4096,8192,16384 \
  --autotune-min-tokens 8192 --reps 30 --normjit-nopdl > "$R/peers-nopdl.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
cat "$R/peers-nopdl.txt"
