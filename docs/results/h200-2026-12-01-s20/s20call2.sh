#!/usr/bin/env bash
# Device call 2 (session 20): prefetch as a mask (weight by the first CTA only; residual; input)
# against the defaults in bench --latency, memset and kernel fills; the forced-prefetch GPU test.
# Carry: .devdeps build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli test_gpu > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
run() { name=$1; shift; timeout 60 build-gpu/normjit bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "== $name rc=$? at $(( $(date +%s) - start )) s"; }
run default
run w --config prefetch=weight
run x --config prefetch=input
run wx --config prefetch=weight+input
run r --config prefetch=residual
run rx --config prefetch=residual+input
run wrx --config prefetch=weight+residual+input
run default2
run kfill --fill kernel
run kfill-wx --fill kernel --config prefetch=weight+input
run kfill-rx --fill kernel --config prefetch=residual+input
run kfill-wrx --fill kernel --config prefetch=weight+residual+input
L=$R/latency
python3 scripts/latency_compare.py $L-default.txt $L-w.txt $L-x.txt $L-wx.txt $L-r.txt $L-rx.txt $L-wrx.txt $L-default2.txt > "$R/compare-memset.txt" 2>&1
python3 scripts/latency_compare.py $L-kfill.txt $L-kfill-wx.txt $L-kfill-rx.txt $L-kfill-wrx.txt > "$R/compare-kfill.txt" 2>&1
python3 scripts/latency_compare.py --static $L-default.txt $L-x.txt $L-r.txt $L-rx.txt $L-default2.txt > "$R/compare-static.txt" 2>&1
cat "$R/compare-memset.txt" "$R/compare-kfill.txt" "$R/compare-static.txt"
timeout 200 build-gpu/tests/gpu/test_gpu "forced configs: the weight, residual and input prefetched into L2 before the PDL wait" > "$R/test-prefetch.txt" 2>&1
echo "prefetch test rc=$?"; tail -3 "$R/test-prefetch.txt"
echo "done at $(( $(date +%s) - start )) s"
