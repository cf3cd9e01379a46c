#!/usr/bin/env bash
# Session 36, call 11: strided head_dim-64 rows from kStridedSharedRows8 (98304): the per-head GPU
# tests (new edges), and 81920-98304 rows against one row a thread, interleaved, two rounds.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s36call11
build_cli test_gpu || exit 1
NORMJIT_CACHE_DIR=$(mktemp -d) timeout 200 ctest --test-dir build-gpu -L gpu -R "per-head|3-D|several rows|switch kernels" -j 3 --output-on-failure > "$R/ctest-3d.txt" 2>&1
echo "ctest rc=$? at $(elapsed) s"; grep -E "tests passed|Failed|\*\*\*|Test +#" "$R/ctest-3d.txt" | head -20
call_deadline=330
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --reps 60 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
for round in 1 2; do
  cmp q64-r$round --op rmsnorm --dtype bf16,f16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 2560,2816,3072 --compare "default;tpr=8,rpb=16,rpt=2,reconvert=1,weight_shared=1;tpr=4,rpb=32,rpt=1,reconvert=0,weight_shared=0"
done
for r in 1 2; do grep -E "x[01]\.[0-9]+" "$R/q64-r$r.txt" | awk -v r=$r '{print r,$2,$3,$5,$6,$11}'; done | sort -k2,2 -k3,3n -k4,4 -k1,1n
