#!/usr/bin/env bash
# Session 66, call 2 (not run: no device machine was lent this session; carry build-tmp .devdeps).
# Copy it and sum4.patch to build-tmp/ and run `bash build-tmp/s66call2-not-run.sh` (after call 1,
# or alone: it builds what it needs); about 4 minutes after the machine's start.
# 1. Call 1's pin_weight=1 against the default with the buffers filled by a kernel.
# 2. The sum4 template variant (sum4.patch: the held row's sum of squares in four partial sums,
#    the warps' sums added pairwise; a quarter of the dependent FMA chain after the row's data is
#    in, and log2 of the cross-warp one) against the default, in both states. It compiled for
#    every kernel of the `all` manifest on sm_80, sm_90 and sm_100 here; the float64 validation of
#    the GPU suite has not run on it. Taken into the template only if it wins, with the suite.
source "$(dirname "$0")/../scripts/device_call.sh" s66call2
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
build_cli || exit 1
root=$(pwd)
sum4=$root/build-tmp/tpl-sum4
rm -rf "$sum4" && mkdir -p "$sum4"
cp -r kernel_templates "$sum4/" && (cd "$sum4" && patch -p1 -s < "$root/build-tmp/sum4.patch") || exit 1
lat() {  # NAME [bench args]: one process each
  local name=$1; shift
  timeout 100 "$nj" bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "latency $name rc=$? at $(elapsed) s"
}
lat kfill --fill kernel; lat pin-kfill --fill kernel --config pin_weight=1
lat default
NORMJIT_TEMPLATE_DIR=$sum4/kernel_templates lat sum4
NORMJIT_TEMPLATE_DIR=$sum4/kernel_templates lat sum4-kfill --fill kernel
lat default2
L=$R/latency
echo "== kernel fill: default / pin_weight=1 / sum4"
python3 scripts/latency_compare.py $L-kfill.txt $L-pin-kfill.txt $L-sum4-kfill.txt
echo "== memset: default / sum4 / default"
python3 scripts/latency_compare.py $L-default.txt $L-sum4.txt $L-default2.txt
echo "done at $(elapsed) s"
