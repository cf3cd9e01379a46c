#!/usr/bin/env bash
# Session 56, call 1: the whole GPU suite (scripts/gpu_suite.sh: GPU ctest, pytest, the prewarmed
# cache offline, bench --latency) on the final tree of session 55 (05423bf: fp32-weight rules,
# reg_usage). Carry build-tmp .devdeps .whl cache/prewarmed.
source "$(dirname "$0")/../scripts/device_call.sh" s56call1
gpu_suite_summary 575
echo "done at $(elapsed) s"
