#!/usr/bin/env bash
# Device call 2 (session 10): can ncu read counters here? If so, where the staged wide-row
# kernels (82 % of copy at 1024 rows) lose against a narrow-row kernel of the same bytes.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s10call2.tgz r' EXIT
export OUT=$R
uname -r; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,smsp__cycles_active.avg.pct_of_peak_sustained_elapsed,dram__cycles_elapsed.avg.per_second
P() { local name=$1; shift
  timeout 90 ncu --clock-control none -k regex:normjit_entry -s 4 -c 1 --metrics $M "$@" > "$R/ncu-$name.txt" 2>&1
  echo "== $name rc=$? ($*)"; grep -E "gpu__|dram__|lts__|sm__|launch__|smsp__|ERR|rror" "$R/ncu-$name.txt" | head -20; }
P staged-1024x65536 $nj bench --op rmsnorm --tokens 1024 --hidden 65536 --reps 3
P staged-4096x65536 $nj bench --op rmsnorm --tokens 4096 --hidden 65536 --reps 3
P regs-8192x16384 $nj bench --op rmsnorm --tokens 8192 --hidden 16384 --reps 3
P regs-32768x16384 $nj bench --op rmsnorm --tokens 32768 --hidden 16384 --reps 3
P staged-1024x262144 $nj bench --op rmsnorm --tokens 1024 --hidden 262144 --reps 3
P fused-staged-1024x262144 $nj bench --op fused_add_rmsnorm --tokens 1024 --hidden 262144 --reps 3
P regs-1024x32768 $nj bench --op rmsnorm --tokens 1024 --hidden 32768 --reps 3
echo "done at $(( $(date +%s) - start )) s"
