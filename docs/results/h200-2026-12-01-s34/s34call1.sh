#!/usr/bin/env bash
# Session 34, call 1: weight_shared (the weight read once a block through shared memory, rows per
# thread > 1): its GPU test and the rows-per-thread tests it sits beside, then interleaved
# compares against the defaults at per-head rows of 64, 128 and 256, two rounds in two processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s34call1
build_cli test_gpu || exit 1
cache=$(mktemp -d)
NORMJIT_CACHE_DIR="$cache" timeout 200 ctest --test-dir build-gpu -L gpu -R "shared memory$|dense rows|several rows per thread" \
  -j 3 --output-on-failure > "$R/ctest-subset.log" 2>&1
echo "ctest rc=$? at $(elapsed) s"; grep -E "Test +#|tests passed|tests failed" "$R/ctest-subset.log"
call_deadline=570
X128="default;weight_shared=1;rpt=8,tpr=16,rpb=8,residency=0,reconvert=1,dense=1,weight_shared=1;rpt=8,tpr=16,rpb=8,residency=0,reconvert=1,dense=1"
X64="default;weight_shared=1"
X256="default;weight_shared=1;rpt=2,tpr=16,rpb=8,residency=0,dense=1;rpt=2,tpr=16,rpb=8,residency=0,dense=1,weight_shared=1"
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op rmsnorm --dtype "$2" --tokens "$3" --hidden "$4" --reps 60 --compare "$5" > "$R/$1.txt" 2>&1; echo "$1 rc=$? at $(elapsed) s"; }
for round in 1 2; do
  cmp w128-r$round bf16,f16 65536,131072,221184,262144 128 "$X128"
  cmp w64-r$round bf16 98304,131072,262144,524288 64 "$X64"
  cmp w256-r$round bf16 32768,65536,131072 256 "$X256"
done
for f in w128-r1 w128-r2 w64-r1 w64-r2 w256-r1 w256-r2; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f.txt" | awk '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print $2,$3,$4,$5,$6,$12}'; done
