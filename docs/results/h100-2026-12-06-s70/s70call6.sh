#!/usr/bin/env bash
# Session 70, call 6 (carry build-tmp .devdeps): the final tree (d7da69b; SASS-identical kernels)
# through the forced pins' and the cluster GPU tests.
source "$(dirname "$0")/../scripts/device_call.sh" s70call6
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1
build_cli test_gpu || exit 1
timeout 150 build-gpu/tests/gpu/test_gpu "forced configs: the weight pinned*" > "$R/test-pins.txt" 2>&1
echo "pins test rc=$? at $(elapsed) s"; tail -2 "$R/test-pins.txt"
timeout 100 build-gpu/tests/gpu/test_gpu "forced configs: clusters of several rows a block (column shares)" > "$R/test-tiles.txt" 2>&1
echo "tiles test rc=$? at $(elapsed) s"; tail -2 "$R/test-tiles.txt"
