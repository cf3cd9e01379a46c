#!/usr/bin/env bash
# Device call 3 (session 10): ncu sections (speed of light, memory, warp states) of the staged
# wide-row kernel at 1024 and 4096 rows against the narrow register kernel of the same bytes.
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s10call3.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats"
P() { local name=$1; shift
  timeout 120 ncu --clock-control none -k regex:normjit_entry -s 4 -c 1 $S "$@" > "$R/ncu-$name.txt" 2>&1
  echo "== $name rc=$?"; }
P staged-1024x65536 $nj bench --op rmsnorm --tokens 1024 --hidden 65536 --reps 3
P regs-8192x16384 $nj bench --op rmsnorm --tokens 8192 --hidden 16384 --reps 3
P staged-4096x65536 $nj bench --op rmsnorm --tokens 4096 --hidden 65536 --reps 3
P reload-1024x65536 $nj bench --op rmsnorm --tokens 1024 --hidden 65536 --reps 3 --config tpr=256,cluster=4,residency=2,minb=4
for f in "$R"/ncu-*.txt; do echo "#### $f"; grep -vE "^==PROF==|^\s*$|^  [A-Z]+ " "$f" | grep -E "^\s+[A-Za-z]" | head -90; done
