#!/usr/bin/env bash
# Device call 7 (session 14, experiment): the t512 re-read of 16384 with shuffles from 16 warps and
# still 3 CTAs per SM: 3200 bytes of padding in static shared memory (k16pad) and a 16 KiB carveout
# preference (NORMJIT_EXP_CARVEOUT=7 %, an uncommitted host hook) leave room for 3 CTAs.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nj=build-gpu/normjit
B() { echo "-- $1"; shift; timeout 40 env "$@" $nj bench --reps 30 --op rmsnorm --tokens 8192,32768 --hidden 16384 2>&1 | grep -E "^rmsnorm|rror"; }
P=NORMJIT_TEMPLATE_DIR=build-tmp/tpl14-k16pad
{
  echo "built at $(( $(date +%s) - start )) s"
  B base X=1
  B "base carveout" NORMJIT_EXP_CARVEOUT=7
  B "k16pad carveout (3 CTAs)" $P NORMJIT_EXP_CARVEOUT=7
  B "k16pad (4 CTAs)" $P
  B base X=1
  B "k16pad carveout (3 CTAs)" $P NORMJIT_EXP_CARVEOUT=7
  B "base carveout" NORMJIT_EXP_CARVEOUT=7
  echo "done at $(( $(date +%s) - start )) s"
} 2>&1 | tee "$R/carveout.txt"
