#!/usr/bin/env bash
# Session 33, call 9: dense rows of 8 vectors four to a thread from 65536 rows (the rule after
# call 8): the GPU tests it touches (the switches, dense rows forced, several rows per thread),
# the Python suite, and the rule at its threshold against the old default, two rounds.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s33call9
build_cli test_gpu || exit 1
cache=$(mktemp -d)
NORMJIT_CACHE_DIR="$cache" timeout 330 ctest --test-dir build-gpu -L gpu -R "switch kernels$|dense rows|several rows per thread" \
  -j 3 --output-on-failure > "$R/ctest-subset.log" 2>&1
echo "ctest rc=$? at $(elapsed) s"; grep -E "Test +#|tests passed|tests failed" "$R/ctest-subset.log"
if python3 -c 'import xdist' 2>/dev/null; then x=(-n 8); else x=(); fi
NORMJIT_CACHE_DIR="$cache" NORMJIT_LIBRARY=build-gpu/libnormjit.so timeout 120 python3 -m pytest -q -p no:cacheprovider "${x[@]}" python/tests > "$R/pytest.log" 2>&1
echo "pytest rc=$? at $(elapsed) s: $(tail -1 $R/pytest.log)"
OLD="default;rpt=1,tpr=4,rpb=32,residency=0,dense=0"
for r in 1 2; do
  timeout 60 $nj bench --op rmsnorm --dtype bf16,f16 --tokens 65535,65536,98304,131071 --hidden 64 --reps 60 --compare "$OLD" > "$R/rule64-r$r.txt" 2>&1
  echo "rule64-r$r rc=$? at $(elapsed) s"
  grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/rule64-r$r.txt" | awk '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,220); else print $2,$3,$5,$6,$12}'
done
