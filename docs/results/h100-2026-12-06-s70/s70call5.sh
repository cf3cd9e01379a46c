#!/usr/bin/env bash
# Session 70, call 5 (carry build-tmp .devdeps .whl cache/prewarmed): the whole GPU suite on the
# session's tree (pin_weight 5 added; cache/prewarmed re-prewarmed for its templates).
source "$(dirname "$0")/../scripts/device_call.sh" s70call5
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1
gpu_suite_summary ${SUITE_TIMEOUT:-570}
echo "done at $(elapsed) s"
