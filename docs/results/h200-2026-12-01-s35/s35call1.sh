#!/usr/bin/env bash
# Session 35, call 1: bench --heads (new) on the GPU test; reconvert on strided per-head rows
# (q/k views of a fused qkv tensor) and on dense head_dim-128 rows of 8 lanes x 2, interleaved,
# rounds in separate processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s35call1
build_cli test_gpu || exit 1
NORMJIT_CACHE_DIR=$(mktemp -d) timeout 200 ctest --test-dir build-gpu -L gpu -R "bench" --output-on-failure > "$R/ctest-bench.txt" 2>&1
echo "ctest bench rc=$? at $(elapsed) s"; tail -4 "$R/ctest-bench.txt"
call_deadline=560
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --op rmsnorm --reps 60 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
for round in 1 2; do
  cmp q128-r$round --dtype bf16,f16 --hidden 128 --heads 32 --qkv-heads 48 --tokens 512,1024,2048,4096,8192,16384 --compare "default;reconvert=1"
  cmp q64-r$round --dtype bf16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 1024,2048,4096,8192,16384 --compare "default;reconvert=1"
  cmp q256-r$round --dtype bf16 --hidden 256 --heads 16 --qkv-heads 24 --tokens 512,1024,2048,4096,8192 --compare "default;reconvert=1"
  cmp d128-r$round --dtype bf16,f16 --hidden 128 --tokens 16384,32768,65536,98304 --compare "default;reconvert=1;reconvert=1,dense=1"
done
for f in q128 q64 q256 d128; do echo "== $f"; for r in 1 2; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
left=$(( 585 - $(elapsed) )); [ $left -gt 30 ] && { timeout $left $nj bench --op rmsnorm --dtype bf16 --hidden 128 --heads 32 --qkv-heads 48 --tokens 4096 --reps 30 --sweep > "$R/sweep-q128.txt" 2>&1; echo "sweep rc=$? at $(elapsed) s"; grep best: "$R/sweep-q128.txt"; }
