#!/usr/bin/env bash
# Session 34, call 4: the weight_shared rule: the GPU tests it touches (the switch cases at its
# thresholds, the forced layouts), the Python suite, then the 3-D table beside the peers with two
# more shapes in the rule's range (4096 x 24 x 64, 8192 x 16 x 256).
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s34call4
build_cli test_gpu || exit 1
cache=$(mktemp -d)
NORMJIT_CACHE_DIR="$cache" timeout 260 ctest --test-dir build-gpu -L gpu -R "switch kernels$|shared memory$" \
  -j 3 --output-on-failure > "$R/ctest-subset.log" 2>&1
echo "ctest rc=$? at $(elapsed) s"; grep -E "Test +#|tests passed|tests failed" "$R/ctest-subset.log"
if python3 -c 'import xdist' 2>/dev/null; then x=(-n 8); else x=(); fi
NORMJIT_CACHE_DIR="$cache" NORMJIT_LIBRARY=build-gpu/libnormjit.so timeout 120 python3 -m pytest -q -p no:cacheprovider "${x[@]}" python/tests > "$R/pytest.log" 2>&1
echo "pytest rc=$? at $(elapsed) s: $(tail -1 $R/pytest.log)"
left=$(( 590 - $(elapsed) ))
REBUILD=1 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
  --heads 4608x48x128,8192x32x128,8192x8x128,4096x32x64,2048x16x256,4096x24x64,8192x16x256 \
  --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
echo "3d rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/3d.txt" | tail -10
