#!/usr/bin/env bash
# Device call 1 (session 27): why torch.compile runs under a same-bytes copy at rmsnorm
# 32768 x 7168 and x 10240. ncu's DRAM and L2 counters of compile's kernel, a torch copy and
# normjit's kernels (default; compile's plan in our template), then the predicated t512 plans
# interleaved against the default. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s27call1.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_op_read_hit_rate.pct,launch__registers_per_thread,launch__grid_size,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
N() { local name=$1; shift; echo "#### $name" >> "$R/ncu.txt"
  timeout 150 ncu --clock-control none --metrics $M "$@" > "$R/ncu-$name.raw" 2>&1
  echo "== $name rc=$? at $(( $(date +%s) - start )) s"
  grep -E "^\s+(gpu|lts|dram|launch|sm)__|==ERR|rror" "$R/ncu-$name.raw" | tee -a "$R/ncu.txt"; }
for H in 7168 10240; do
  N compile-$H -k regex:triton -s 10 -c 1 python3 build-tmp/ncu_peer.py compile 32768 $H
  N copy-$H -k regex:elementwise -s 10 -c 1 python3 build-tmp/ncu_peer.py copy 32768 $H
  N nj-default-$H -k regex:normjit_entry -s 4 -c 1 $nj bench --op rmsnorm --tokens 32768 --hidden $H --reps 3
done
N nj-t512v8hint-7168 -k regex:normjit_entry -s 4 -c 1 $nj bench --op rmsnorm --tokens 32768 --hidden 7168 --reps 3 --config tpr=512,vec=8,residency=2,loads=3,minb=0,pin_weight=0
N nj-t512v4hint-10240 -k regex:normjit_entry -s 4 -c 1 $nj bench --op rmsnorm --tokens 32768 --hidden 10240 --reps 3 --config tpr=512,vec=4,residency=2,loads=3,minb=0,pin_weight=0
timeout 150 $nj bench --op rmsnorm --tokens 8192,32768 --hidden 7168 --reps 30 --compare \
  "default;tpr=512,vec=8,residency=2,loads=3,minb=0,pin_weight=0;tpr=512,vec=8,residency=2,loads=0,minb=0,pin_weight=0;tpr=256,residency=2,loads=3,minb=0,pin_weight=0" > "$R/t512v8-call1.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; grep -v "^device" "$R/t512v8-call1.txt" | cut -c1-118
