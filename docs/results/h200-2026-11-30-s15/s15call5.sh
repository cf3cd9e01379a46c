#!/usr/bin/env bash
# Device call 5 (session 15): sweeps at the shapes still behind a peer outside the copy ceiling
# (rmsnorm 512 x 16384 at 1.025-1.033 of torch.compile; fused add 128 x 2048, rmsnorm 128 x 4096
# and 32 x 4096 at 1.003-1.010 of Liger in one table or the other). Every swept config is checked
# against the float64 reference before it is timed. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s15call5.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
nj=build-gpu/normjit
S() { local left=$(( 330 - ($(date +%s) - start) )); [ $left -gt 20 ] || return 0
  echo "== $*"; timeout $left $nj bench --reps 40 --sweep "$@" 2>&1 | grep -vE "^\s*$" | tail -60; }
{
  S --op rmsnorm --tokens 512 --hidden 16384
  S --op fused_add_rmsnorm --tokens 128 --hidden 2048
  S --op rmsnorm --tokens 128 --hidden 4096
} > "$R/sweeps.txt" 2>&1
grep -E "^==|best" "$R/sweeps.txt"
echo "done at $(( $(date +%s) - start )) s"
