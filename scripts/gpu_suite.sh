#!/usr/bin/env bash
# Builds normjit and runs the whole GPU suite on a machine with a CUDA GPU, in one call:
#   1. configure + build (deps from .devdeps/ when present: ../shared/device/fetch-deps.sh)
#   2. the prewarmed-cache check: cache/prewarmed (filled with `normjit prewarm --arch sm_90`
#      on a machine without a GPU) must serve every call with NORMJIT_OFFLINE=1
#   3. the library's own host cost per call (tests/fake_driver [.hostcost]); every ctest with
#      label gpu, on a fresh cache
#   4. `normjit bench --latency` and a short `normjit bench` table
# Logs go to $OUT (or ./gpu-out); the last lines are a summary.
set -uo pipefail
source "$(dirname "$0")/gpu_build.sh"
jobs=$(nproc)
summary=()
status=0

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$out/gpu.txt"

t0=$(date +%s)
if gpu_build "" normjit normjit_cli test_gpu test_multigpu test_fake_driver; then
  summary+=("build: ok in $(( $(date +%s) - t0 )) s")
else
  echo "SUMMARY: build failed"
  exit 1
fi
"$build/normjit" info | tee "$out/info.txt"

if [ -d "$root/cache/prewarmed" ]; then
  # cache/prewarmed: `normjit prewarm --manifest all --arch sm_90 --cache-dir cache/prewarmed`
  # run on a machine without a GPU. Copied so the carried cache stays as it came; offline mode
  # turns any compile into an error.
  pre=$(mktemp -d); cp -r "$root/cache/prewarmed/." "$pre/"
  if NORMJIT_OFFLINE=1 NORMJIT_CACHE_DIR="$pre" "$build/tests/gpu/test_gpu" "[.prewarmed]" >"$out/prewarmed.log" 2>&1 &&
     NORMJIT_OFFLINE=1 NORMJIT_CACHE_DIR="$pre" NORMJIT_TEST_MANIFEST=all "$build/tests/gpu/test_gpu" -s \
       "[.prewarmed_manifest]" >>"$out/prewarmed.log" 2>&1; then
    summary+=("prewarmed cache (sm_90, filled without a GPU): served offline, 0 compiles; $(grep -h '^manifest ' "$out/prewarmed.log")")
  else
    tail -20 "$out/prewarmed.log"; summary+=("prewarmed cache: FAILED"); status=1
  fi
fi
t0=$(date +%s.%N)
"$build/normjit" prewarm --manifest llama-3.1-70b --cache-dir "$(mktemp -d)" | tail -1 >"$out/prewarm70b.txt"
summary+=("prewarm llama-3.1-70b on this host (cold cache): $(cat "$out/prewarm70b.txt")")

# The library's own host cost per call on this host's CPU, against a stand-in driver (warm and
# with the caches flushed before each call; `normjit bench --latency` below has the real launch).
"$build/tests/fake_driver/test_fake_driver" "[.hostcost]" -s 2>&1 | grep '^host cost per call' | tee "$out/hostcost.txt"
summary+=("$(cat "$out/hostcost.txt")")

cache=$(mktemp -d)
t0=$(date +%s)
NORMJIT_CACHE_DIR="$cache" ctest --test-dir "$build" -L gpu --output-on-failure -j "$jobs" \
  --timeout 900 >"$out/ctest-gpu.log" 2>&1
rc=$?
grep -E "tests passed|tests failed|\*\*\*Failed|Not Run|Timeout" "$out/ctest-gpu.log" | tail -15
summary+=("gpu ctest (rc=$rc) in $(( $(date +%s) - t0 )) s: $(grep -E 'tests passed' "$out/ctest-gpu.log")")
[ $rc -eq 0 ] || status=1

# The Python package's suite (torch on the device); xdist spreads it over the cores.
if python3 -c 'import torch' 2>/dev/null; then
  xdist=(); python3 -c 'import xdist' 2>/dev/null && xdist=(-n 8)
  t0=$(date +%s)
  NORMJIT_CACHE_DIR="$cache" NORMJIT_LIBRARY="$build/libnormjit.so" timeout 300 \
    python3 -m pytest -q -rs -p no:cacheprovider "${xdist[@]}" "$root/python/tests" >"$out/pytest.log" 2>&1
  rc=$?
  tail -5 "$out/pytest.log"
  summary+=("python pytest (rc=$rc) in $(( $(date +%s) - t0 )) s: $(tail -1 "$out/pytest.log")")
  [ $rc -eq 0 ] || status=1
  NORMJIT_LIBRARY="$build/libnormjit.so" python3 "$root/python/benchmarks/overhead.py" >"$out/overhead.txt" 2>&1
  tail -3 "$out/overhead.txt"
fi

# The side-by-side harness on one small shape (the full table: scripts/peers_bench.sh), when the
# peers' wheels were carried (.whl/ from scripts/peers/fetch_peers.sh).
if [ -d "$root/.whl" ] && python3 -c 'import torch' 2>/dev/null; then
  REBUILD=0 NORMJIT_CACHE_DIR="$cache" timeout 240 bash "$root/scripts/peers_bench.sh" --ops rmsnorm,fused_add_rmsnorm \
    --tokens 128 --hidden 4096 --reps 10 --autotune-min-tokens 1000000 >"$out/peers-smoke.txt" 2>&1
  rc=$?
  summary+=("peers smoke (rc=$rc): $(grep -c '^| 128' "$out/peers-smoke.txt") rows; $(grep -c 'not available\|failed\|Error' "$out/peers-smoke.txt") problems")
  [ $rc -eq 0 ] || { tail -20 "$out/peers-smoke.txt"; status=1; }
fi

if [ "${NORMJIT_SASS:-0}" = 1 ] && command -v cuobjdump >/dev/null; then
  # Register use and SASS of the hidden-8192 kernels the tests cached (scripts/sass.sh).
  bash "$root/scripts/sass.sh" "$cache" '*-bf16-h8192-*' >"$out/sass.txt" 2>&1
fi

if [ "${NORMJIT_SKIP_BENCH:-0}" != 1 ]; then
  "$build/normjit" bench --latency 2>&1 | tee "$out/latency.txt"
  "$build/normjit" bench ${BENCH_ARGS:---op rmsnorm,fused_add_rmsnorm --tokens 1,128,2048,32768 --hidden 4096,8192 --reps 50} \
    2>&1 | tee "$out/bench.txt"
fi

echo "== SUMMARY ($(date -u +%F) $(cut -d, -f1 "$out/gpu.txt"))"
for line in "${summary[@]}"; do echo "  $line"; done
exit $status
