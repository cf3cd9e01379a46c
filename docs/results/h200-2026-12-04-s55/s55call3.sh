#!/usr/bin/env bash
# Session 55, call 3: the whole GPU suite (scripts/gpu_suite.sh: GPU ctest, pytest, the prewarmed
# cache offline, bench --latency) on the final kernels (e83c15c). Carry build-tmp .devdeps .whl
# cache/prewarmed.
source "$(dirname "$0")/../scripts/device_call.sh" s55call3
gpu_suite_summary 575
echo "done at $(elapsed) s"
