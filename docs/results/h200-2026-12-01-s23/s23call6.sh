#!/usr/bin/env bash
# Device call 6 (session 23): head_dim-128 rows four a thread on 16 lanes (one vector each)
# against the default 8 lanes (two), and head_dim-64 rows four a thread below 131072 rows.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s23call6.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
for t in 131072 221184 262144 1048576; do
  timeout 60 build-gpu/normjit bench --op rmsnorm --tokens $t --hidden 128 --reps 60 \
    --compare "default;tpr=16,rpb=8,rpt=4;tpr=16,rpb=4,rpt=4;default;tpr=16,rpb=8,rpt=4" 2>&1 | tail -5
done > "$R/rpt128-16lanes.txt"
echo "h128 at $(( $(date +%s) - start )) s"; cat "$R/rpt128-16lanes.txt"
for t in 49152 65536 98304; do
  timeout 60 build-gpu/normjit bench --op rmsnorm --tokens $t --hidden 64 --reps 60 \
    --compare "default;tpr=8,rpb=8,rpt=4;default;tpr=8,rpb=8,rpt=4" 2>&1 | tail -4
done > "$R/rpt64-below.txt"
echo "h64 at $(( $(date +%s) - start )) s"; cat "$R/rpt64-below.txt"
