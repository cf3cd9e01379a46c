#!/usr/bin/env bash
# Hardware counters of one normjit kernel, on the GPU machine: builds the CLI (scripts/gpu_build.sh)
# and profiles the first timed call of `normjit bench` for one shape with Nsight Compute's
# speed-of-light, memory, warp-state, scheduler, occupancy and launch sections, and the breakdown of
# L2 throughput by unit (lts__ltcfabric2ltc: the fabric between the H100/H200's two L2 halves).
#   bash scripts/ncu_profile.sh --op rmsnorm --tokens 1024 --hidden 65536 [other bench options]
# One op, one token count and one hidden size: ncu takes the 5th normjit launch of the process,
# after the bench's check and its 3 warm-up calls. Clocks stay as they are (--clock-control none,
# as in every other measurement here); ncu flushes the caches before each replay, so the inputs
# come from HBM. Needs counter access (the device tool's Firecracker machines have it, its gVisor
# ones refuse: .library/device/KINDS.md). Report: $OUT/ncu-<op>-<tokens>x<hidden>.txt (else gpu-out/).
set -uo pipefail
source "$(dirname "$0")/gpu_build.sh"
op="" tokens="" hidden=""
args=("$@")
for ((i = 0; i < ${#args[@]}; ++i)); do
  case "${args[i]}" in
    --op) op=${args[i + 1]} ;;
    --tokens) tokens=${args[i + 1]} ;;
    --hidden) hidden=${args[i + 1]} ;;
  esac
done
if [ -z "$op" ] || [ -z "$tokens" ] || [ -z "$hidden" ] || [[ "$op$tokens$hidden" == *,* ]]; then
  echo "usage: $0 --op OP --tokens N --hidden H [bench options]  (one of each)" >&2
  exit 2
fi
command -v ncu >/dev/null || { echo "ncu is not on the PATH" >&2; exit 1; }
gpu_build "ncu-" normjit_cli || exit 1
report="$out/ncu-$op-${tokens}x$hidden.txt"
NORMJIT_CACHE_DIR=${NORMJIT_CACHE_DIR:-$(mktemp -d)} \
  ncu --clock-control none -k regex:normjit_entry -s 4 -c 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
  --section SchedulerStats --section Occupancy --section LaunchStats \
  --metrics breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum \
  "$build/normjit" bench --reps 3 "$@" >"$report" 2>&1
rc=$?
grep -E "normjit_entry|Duration|DRAM Throughput|L2 Cache Throughput|L2 Hit Rate|Achieved Occupancy|Registers Per|Waves Per SM|Warp Cycles Per Issued|ltcfabric|lts__t_bytes|ERR|rror" "$report"
[ $rc -eq 0 ] || { tail -20 "$report"; echo "ncu failed (rc=$rc): $report" >&2; }
exit $rc
