#!/usr/bin/env bash
# Session 67, call 1 (carry build-tmp .devdeps): bench --latency at the decode sizes, default
# against the two new ways of asking for the weight with the row (pin_weight 3: its lines into L1
# by prefetch.global.L1 after the row's loads; 4: copied into shared memory by cp.async),
# buffers filled by memset, then the sum4 template variant (sum4.patch) and kernel fills as time
# allows; then the GPU test of forced pins (0-4) against the float64 reference.
source "$(dirname "$0")/../scripts/device_call.sh" s67call1
call_deadline=${CALL_DEADLINE:-450}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1
build_cli test_gpu || exit 1
root=$(pwd)
T4=$root/build-tmp/tpl-sum4
rm -rf "$T4" && mkdir -p "$T4" && cp -r kernel_templates "$T4/" && (cd "$T4" && patch -p1 -s < "$root/build-tmp/sum4.patch") || exit 1
lat() {  # NAME [bench args]: one process each, skipped past the deadline (less than 20 s left)
  local name=$1 left; shift
  left=$(time_left) || { echo "skip latency $name"; return; }
  [ $left -gt 100 ] && left=100
  timeout $left "$nj" bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "latency $name rc=$? at $(elapsed) s"
}
L=$R/latency
lat default
lat pin3 --config pin_weight=3
lat pin4 --config pin_weight=4
lat default2
lat pin3-2 --config pin_weight=3
lat pin4-2 --config pin_weight=4
echo "== memset: default / pin3 / pin4 / default / pin3 / pin4"
python3 scripts/latency_compare.py $L-default.txt $L-pin3.txt $L-pin4.txt $L-default2.txt $L-pin3-2.txt $L-pin4-2.txt
grep -h "same-bytes copy" $L-default.txt | grep " 128 x \| 32 x 8192" | head -12
left=$(time_left) && {
  timeout $((left > 150 ? 150 : left)) build-gpu/tests/gpu/test_gpu "forced configs: the weight pinned*" > "$R/test-pins.txt" 2>&1
  echo "pins test rc=$? at $(elapsed) s"; tail -3 "$R/test-pins.txt"; }
NORMJIT_TEMPLATE_DIR=$T4/kernel_templates lat sum4
lat kfill --fill kernel
lat pin3-kfill --fill kernel --config pin_weight=3
[ -f $L-sum4.txt ] && python3 scripts/latency_compare.py $L-default.txt $L-sum4.txt $L-default2.txt
[ -f $L-pin3-kfill.txt ] && python3 scripts/latency_compare.py $L-kfill.txt $L-pin3-kfill.txt
echo "done at $(elapsed) s"
