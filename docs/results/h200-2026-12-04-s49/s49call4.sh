#!/usr/bin/env bash
# Session 49, call 4: the whole GPU suite on the final tree (held 8 x 128 rows from 4097 vectors and gemma; late-weight 512-thread rows of 5121-6143).
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s49call4
gpu_suite_summary 540
echo "done at $(elapsed) s"
