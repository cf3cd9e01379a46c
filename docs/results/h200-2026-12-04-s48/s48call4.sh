#!/usr/bin/env bash
# Session 48, call 4: the whole GPU suite on the final tree (held shares pinning every item).
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s48call4
gpu_suite_summary 540
echo "done at $(elapsed) s"
