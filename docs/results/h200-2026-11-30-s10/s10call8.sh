#!/usr/bin/env bash
# Device call 8 (session 10): which L2 unit is busy: ncu's breakdown of L2 throughput for the
# staged rmsnorm 1024 x 65536 and for a torch copy of the same bytes (128 MiB in, 128 MiB out).
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s10call8.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli || exit 1
M="breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed"
export NORMJIT_CACHE_DIR=$(mktemp -d)
echo "== staged rmsnorm 1024 x 65536"
timeout 60 ncu --clock-control none -k regex:normjit_entry -s 4 -c 1 --metrics "$M" build-gpu/normjit bench --op rmsnorm --tokens 1024 --hidden 65536 --reps 3 2>&1 | grep -E "^\s+[a-z]+__|ERR|rror" | tee "$R/l2-breakdown-staged.txt"
echo "== torch copy of 128 MiB"
timeout 60 ncu --clock-control none -s 2 -c 1 --metrics "$M" python3 -c "
import torch
x = torch.randn(1024 * 65536, device='cuda').to(torch.bfloat16); y = torch.empty_like(x)
for _ in range(3): y.copy_(x)
torch.cuda.synchronize()" 2>&1 | grep -E "^\s+[a-z]+__|^  [a-zA-Z_].*\(|ERR|rror" | tee "$R/l2-breakdown-copy.txt"
