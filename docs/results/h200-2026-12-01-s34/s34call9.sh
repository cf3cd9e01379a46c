#!/usr/bin/env bash
# Session 34, call 9: rows of 32 vectors on 16 lanes reconverted (and dense) from 8192 rows, not
# only with the shared weight from 32768: the GPU tests that run those kernels (the switch cases,
# per-head rows several a thread), then the new default against the old kernels (reconvert=0,
# dense=0) at 8192-24576 x 256, and at 32768 as a check, two rounds in two processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s34call9
build_cli test_gpu || exit 1
cache=$(mktemp -d)
NORMJIT_CACHE_DIR="$cache" timeout 200 ctest --test-dir build-gpu -L gpu -R "switch kernels$|several rows per thread" \
  -j 3 --output-on-failure > "$R/ctest-subset.log" 2>&1
echo "ctest rc=$? at $(elapsed) s"; grep -E "Test +#|tests passed|tests failed" "$R/ctest-subset.log"
call_deadline=300
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op rmsnorm --dtype "$2" --tokens "$3" --hidden "$4" --reps 60 --compare "$5" > "$R/$1.txt" 2>&1; echo "$1 rc=$? at $(elapsed) s"; }
for round in 1 2; do cmp r256-r$round bf16,f16 8192,12288,16384,20480,24576,32768 256 "default;reconvert=0,dense=0"; done
for f in r256; do echo "== $f"; for r in 1 2; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
