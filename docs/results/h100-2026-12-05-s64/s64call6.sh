#!/usr/bin/env bash
# Session 64, call 6 (carry build-tmp .devdeps cache/prewarmed; run inline through the device tool,
# kept here as a script): the cluster test plain (clusters 2-16) and under synccheck with
# NORMJIT_TEST_MAX_CLUSTER=8, as scripts/gpu_sanitize.sh now runs it.
source scripts/gpu_build.sh && gpu_build "" test_gpu > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
t=$build/tests/gpu/test_gpu; c=$(mktemp -d); cp -r cache/prewarmed/. "$c/"
NORMJIT_CACHE_DIR=$c timeout 100 "$t" "forced configs: rows split over thread-block clusters" 2>&1 | tail -3
NORMJIT_CACHE_DIR=$c NORMJIT_TEST_MAX_CLUSTER=8 NORMJIT_TEST_TIGHT_BUFFERS=1 timeout 300 compute-sanitizer --tool synccheck \
  --error-exitcode 99 --print-limit 5 "$t" "forced configs: rows split over thread-block clusters" 2>&1 | tail -8
echo "rc=${PIPESTATUS[0]}"
