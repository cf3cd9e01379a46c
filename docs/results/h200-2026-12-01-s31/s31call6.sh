#!/usr/bin/env bash
# Device call 6 (session 31, the per-head rows' addresses before their loads): the [3d] GPU tests
# by name, then per-head rmsnorm on strided head views, old templates (005edc4) / new, alternating
# processes (build-tmp/strided_heads.py).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s31call6
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli test_gpu > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(elapsed) s"
export NORMJIT_LIBRARY=$PWD/build-gpu/libnormjit.so PYTHONPATH=$PWD/python
for v in old new old new; do
  d=""; [ $v = old ] && d=$PWD/build-tmp/tpl_s31old/kernel_templates
  NORMJIT_TEMPLATE_DIR=$d NORMJIT_CACHE_DIR=$(mktemp -d) timeout 40 python3 build-tmp/strided_heads.py $v >> "$R/strided.txt" 2>&1
  echo "$v rc=$? at $(elapsed) s"
done
sort "$R/strided.txt" -k2,2 -k1,1 | grep median
timeout $(( 300 - $(elapsed) )) build-gpu/tests/gpu/test_gpu "[3d]" > "$R/test-3d.log" 2>&1
echo "3d tests rc=$? $(tail -2 "$R/test-3d.log" | tr '\n' ' ') at $(elapsed) s"
