#!/usr/bin/env bash
# Session 66, call 1 (not run: no device machine was lent this session; carry build-tmp .devdeps).
# Copy it to build-tmp/ and run `bash build-tmp/s66call1-not-run.sh`; about 4 minutes after the
# machine's start. Call 2 (s66call2-not-run.sh) takes the kernel-fill state and the sum4 variant.
# 1. decode_anatomy step J before and after entering the slow decode state (G): per launch the PDL
#    release and the body, and per CTA the body's phases in SM cycles (x in, reduced, weight in,
#    stored), for the anatomy's copy, x*w, warp-norm, norm (128 and 256 threads) and norm with the
#    weight first at 128 x 4096, and the norm with and without the early trigger at 128 x 2048.
# 2. normjit's decode graphs with the weight loads pinned to the row's (`--config pin_weight=1`)
#    against the default, buffers filled by cuMemsetD8 (call 2: by a kernel). The 128-row rmsnorm
#    kernels (prefetch of the weight only, `-pfw`) issue their weight loads only after the first
#    x item's arithmetic (ptxas reuses the x registers; sm_90a SASS, session 66); pinned, all
#    loads go out together. Session 19 timed the pin before the weight prefetch existed (even).
source "$(dirname "$0")/../scripts/device_call.sh" s66call1
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o build-tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
echo "anatomy built at $(elapsed) s"
timeout 200 build-tmp/decode_anatomy --flush --script AJGAJ a=none:rms:128:4096:128 b=none:fused:128:2048:256 \
  > "$R/journal.txt" 2>&1; echo "journal rc=$? at $(elapsed) s"
cat "$R/journal.txt"
build_cli || exit 1
lat() {  # NAME [bench args]: one process each
  local name=$1; shift
  timeout 100 "$nj" bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "latency $name rc=$? at $(elapsed) s"
}
lat default; lat pin --config pin_weight=1; lat default2
L=$R/latency
echo "== memset: default / pin_weight=1 / default"
python3 scripts/latency_compare.py $L-default.txt $L-pin.txt $L-default2.txt
echo "done at $(elapsed) s"
