#!/usr/bin/env bash
# Device call 4 (session 20): forced config fields on top of the decode prefetch heuristic
# (bench --latency --config, one process each, memset fill), aimed at the reachable misses
# rmsnorm 128 x 4096 and fused add 32 x 8192. Carry: .devdeps build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s20call4.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
run() { name=$1; shift; timeout 60 build-gpu/normjit bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "== $name rc=$? at $(( $(date +%s) - start )) s"; }
run default
run tpr256 --config tpr=256
run tpr64 --config tpr=64
run c2 --config cluster=2
run c8 --config cluster=8
run early --config trigger=early
run stream --config loads=1
run pin --config pin_weight=1
run wrx --config prefetch=weight+residual+input
run wx --config prefetch=weight+input
run default2
L=$R/latency
python3 scripts/latency_compare.py $L-default.txt $L-tpr256.txt $L-tpr64.txt $L-c2.txt $L-c8.txt $L-early.txt $L-stream.txt $L-pin.txt $L-wrx.txt $L-wx.txt $L-default2.txt > "$R/compare-memset.txt" 2>&1
cat "$R/compare-memset.txt"
python3 scripts/latency_compare.py --static $L-default.txt $L-tpr256.txt $L-tpr64.txt $L-c2.txt $L-c8.txt $L-early.txt $L-stream.txt $L-pin.txt $L-wrx.txt $L-wx.txt $L-default2.txt > "$R/compare-static.txt" 2>&1
echo "done at $(( $(date +%s) - start )) s"
