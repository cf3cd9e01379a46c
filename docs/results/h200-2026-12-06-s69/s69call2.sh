#!/usr/bin/env bash
# Session 69, call 2 (carry build-tmp .devdeps cache/prewarmed): bench --latency's row copy beside
# the default kernels at the decode sizes (memset fills, kernel fills, memset again; one process
# each), then compute-sanitizer (memcheck, racecheck, synccheck) over the GPU test of clusters of
# several rows a block, added in session 68 and not yet run under the tools.
source "$(dirname "$0")/../scripts/device_call.sh" s69call2
call_deadline=${CALL_DEADLINE:-300}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1
build_cli test_gpu || exit 1
L=$R/latency
lat default
lat kernel --fill kernel
lat default2
python3 scripts/latency_compare.py $L-default.txt $L-kernel.txt $L-default2.txt
for f in default kernel default2; do echo "== $f"; grep -h "same-bytes copy" $L-$f.txt | grep " 128 x \| 32 x 8192" | head -12; done
OUT=$R SANITIZE_MATCH="clusters of several rows" timeout 250 bash scripts/gpu_sanitize.sh 230 > "$R/sanitize.txt" 2>&1
echo "sanitize rc=$? at $(elapsed) s"; sed -n '/== SUMMARY/,$p' "$R/sanitize.txt"
echo "done at $(elapsed) s"
