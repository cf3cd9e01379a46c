#!/usr/bin/env bash
# Session 65, call 2 (carry build-tmp .devdeps .whl cache/prewarmed): the whole GPU suite on cd13d5d.
source "$(dirname "$0")/../scripts/device_call.sh" s65call2
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
gpu_suite_summary 570
echo "done at $(elapsed) s"
