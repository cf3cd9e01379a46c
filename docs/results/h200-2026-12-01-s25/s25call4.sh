#!/usr/bin/env bash
# Device call 4 (session 25): measured only, at 3e1dd93 -- every valid config at the shapes still
# behind in call 3's table: rmsnorm 2048 x 14336 and 32768 x 10240 (torch.compile), the fused add
# 8192 x 2560 (Liger). Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s25call4.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
for s in "rmsnorm 2048 14336" "rmsnorm 32768 10240" "fused_add_rmsnorm 8192 2560"; do
  set -- $s
  timeout 95 $nj bench --op $1 --tokens $2 --hidden $3 --reps 15 --sweep > "$R/sweep-$1-$2x$3-call4.txt" 2>&1
  echo "sweep $s rc=$? at $(( $(date +%s) - start )) s"; grep best: "$R/sweep-$1-$2x$3-call4.txt"
  awk 'NR>1 && $1!="best:"' "$R/sweep-$1-$2x$3-call4.txt" | sort -k6 -n | head -6 | awk '{print $5,$6,$10}'
done
