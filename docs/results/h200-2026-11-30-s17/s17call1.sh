#!/usr/bin/env bash
# Device call 1 (session 17): the SM-count window (rmsnorm rows of 2048 vectors re-read on 4 CTAs
# an SM where the call is one such wave) against the held rows, interleaved in one process
# (normjit bench --compare); A/A runs of the compare itself at small shapes; the new GPU test;
# the peers at the window's shapes. Carry: build-tmp .devdeps .whl
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s17call1.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli test_gpu > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
HELD='tpr=512,residency=0,minb=0,loads=0,pin_weight=1'
RELOAD='tpr=512,residency=2,minb=4,loads=3'
{
  $nj bench --op rmsnorm --hidden 16384 --tokens 256,264,265,320,384,448,512,528,529,640,768,1024 --reps 60 --compare "default;$HELD;$RELOAD"
  $nj bench --op gemma_rmsnorm --hidden 16384 --tokens 384,512 --reps 60 --compare "default;$HELD;$RELOAD"
  $nj bench --op rmsnorm --dtype f16 --hidden 16384 --tokens 512 --reps 60 --compare "default;$HELD;$RELOAD"
  $nj bench --op fused_add_rmsnorm --hidden 16384 --tokens 384,512 --reps 60 --compare "default;$RELOAD;tpr=1024,residency=2,minb=2,loads=3"
} > "$R/window-compare.txt" 2>&1
echo "window at $(( $(date +%s) - start )) s"; grep -v "^device" "$R/window-compare.txt"
{
  $nj bench --op rmsnorm,fused_add_rmsnorm --hidden 2048,4096 --tokens 128,2048 --reps 100 --compare "default;default"
  $nj bench --op rmsnorm --hidden 16384 --tokens 512 --reps 100 --compare "default;default"
} > "$R/aa-compare.txt" 2>&1
echo "aa at $(( $(date +%s) - start )) s"; grep -v "^device" "$R/aa-compare.txt"
NORMJIT_CACHE_DIR=$(mktemp -d) build-gpu/tests/gpu/test_gpu "default configs at the edges of the SM-count window*" > "$R/test-window.txt" 2>&1
echo "test rc=$? at $(( $(date +%s) - start )) s"; tail -3 "$R/test-window.txt"
left=$(( 570 - ($(date +%s) - start) ))
if [ "$left" -gt 120 ]; then
  timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 256,384,512,768 --hidden 16384 --reps 50 > "$R/peers-window.txt" 2> "$R/peers-window-stderr.txt"
  echo "peers rc=$? at $(( $(date +%s) - start )) s"; grep "^|" "$R/peers-window.txt" | head -8
fi
