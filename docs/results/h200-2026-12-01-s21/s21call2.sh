#!/usr/bin/env bash
# Device call 2 (session 21, at da3e2e7): rmsnorm rows of 256 vectors (hidden 2048) on 256 threads
# below kPinWeightRows, and one vector a thread (512 threads) at 128 rows of 4096, isolated and in
# decode graphs. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s21call2.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
B=build-gpu/normjit
cmp() { name=$1; shift; timeout 120 $B bench "$@" > "$R/$name.txt" 2>&1; echo "== $name rc=$? at $(( $(date +%s) - start )) s"; grep -v "^#" "$R/$name.txt" | tail -n +3; }
cmp tpr256-2048-iso --op rmsnorm --tokens 1,8,32,128,200 --hidden 2048 --reps 60 --compare "default;tpr=256;default;tpr=256"
cmp tpr512-iso --op rmsnorm,fused_add_rmsnorm --tokens 128,200 --hidden 4096 --reps 60 --compare "default;tpr=512;default;tpr=512"
lat() { name=$1; shift; timeout 60 $B bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "== latency $name rc=$?"; }
lat default; lat tpr256 --config tpr=256; lat tpr512 --config tpr=512
lat default2; lat tpr256b --config tpr=256; lat tpr512b --config tpr=512
L=$R/latency
python3 scripts/latency_compare.py $L-default.txt $L-tpr256.txt $L-tpr512.txt $L-default2.txt $L-tpr256b.txt $L-tpr512b.txt > "$R/compare-tpr.txt" 2>&1
cat "$R/compare-tpr.txt"
echo "done at $(( $(date +%s) - start )) s"
