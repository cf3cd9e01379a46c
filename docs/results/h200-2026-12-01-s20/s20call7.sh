#!/usr/bin/env bash
# Device call 7 (session 20): bench --latency --weights 100 (each graph launch reads its own
# weight from HBM) by default, without the prefetch and with other masks, one process each.
# Carry: .devdeps build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s20call7.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
run() { name=$1; shift; timeout 60 build-gpu/normjit bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "== $name rc=$? at $(( $(date +%s) - start )) s"; }
run w1 
run w100 --weights 100
run w100-none --weights 100 --config prefetch=none
run w100-w --weights 100 --config prefetch=weight
run w100-wx --weights 100 --config prefetch=weight+input
run w100-wrx --weights 100 --config prefetch=weight+residual+input
run w100-2 --weights 100
L=$R/latency
python3 scripts/latency_compare.py $L-w1.txt $L-w100.txt $L-w100-none.txt $L-w100-w.txt $L-w100-wx.txt $L-w100-wrx.txt $L-w100-2.txt > "$R/compare-weights.txt" 2>&1
python3 scripts/latency_compare.py --static $L-w1.txt $L-w100.txt $L-w100-none.txt $L-w100-w.txt $L-w100-wx.txt $L-w100-wrx.txt $L-w100-2.txt > "$R/compare-weights-static.txt" 2>&1
cat "$R/compare-weights.txt"; grep "weights\|overhead" $L-w100.txt | head -3
echo "done at $(( $(date +%s) - start )) s"
