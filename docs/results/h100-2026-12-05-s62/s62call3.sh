#!/usr/bin/env bash
# Session 62, call 3: the whole GPU suite on the tree with the staged pre-weight patches (4 + 8) applied.
source "$(dirname "$0")/../scripts/device_call.sh" s62call3
gpu_suite_summary 560
echo "done at $(elapsed) s"
