#!/usr/bin/env bash
# Session 67, call 1 (carry build-tmp .devdeps): bench --latency at the decode sizes, default
# against the two new ways of asking for the weight with the row (pin_weight 3: its lines into L1
# by prefetch.global.L1 after the row's loads; 4: copied into shared memory by cp.async) and the
# sum4 template variant (sum4.patch), buffers filled by memset and by a kernel; then the GPU test
# of forced pins (0-4) against the float64 reference.
source "$(dirname "$0")/../scripts/device_call.sh" s67call1
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1
build_cli || exit 1
root=$(pwd)
T4=$root/build-tmp/tpl-sum4
rm -rf "$T4" && mkdir -p "$T4" && cp -r kernel_templates "$T4/" && (cd "$T4" && patch -p1 -s < "$root/build-tmp/sum4.patch") || exit 1
lat() {  # NAME [bench args]: one process each
  local name=$1; shift
  timeout 100 "$nj" bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "latency $name rc=$? at $(elapsed) s"
}
lat default
lat pin3 --config pin_weight=3
lat pin4 --config pin_weight=4
NORMJIT_TEMPLATE_DIR=$T4/kernel_templates lat sum4
lat default2
lat pin3-2 --config pin_weight=3
lat pin4-2 --config pin_weight=4
lat kfill --fill kernel
lat pin3-kfill --fill kernel --config pin_weight=3
lat pin4-kfill --fill kernel --config pin_weight=4
L=$R/latency
echo "== memset: default / pin3 / pin4 / sum4 / default / pin3 / pin4"
python3 scripts/latency_compare.py $L-default.txt $L-pin3.txt $L-pin4.txt $L-sum4.txt $L-default2.txt $L-pin3-2.txt $L-pin4-2.txt
echo "== kernel fill: default / pin3 / pin4"
python3 scripts/latency_compare.py $L-kfill.txt $L-pin3-kfill.txt $L-pin4-kfill.txt
grep -h "same-bytes copy" $L-default.txt | head -40
echo "tests at $(elapsed) s"
build_cli test_gpu > /dev/null || exit 1
timeout 200 build-gpu/tests/gpu/test_gpu "forced configs: the weight pinned*" > "$R/test-pins.txt" 2>&1; echo "pins test rc=$?"
tail -4 "$R/test-pins.txt"
echo "done at $(elapsed) s"
