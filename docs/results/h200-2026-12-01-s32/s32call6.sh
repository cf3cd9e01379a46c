#!/usr/bin/env bash
# Device call 6 (session 32, f21090b: the tree this session leaves, kernels as a8a2871): the GPU
# suite (ctest -L gpu, pytest, the prewarmed cache offline, decode latency, host cost).
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s32call6
gpu_suite_summary 560
echo "done at $(elapsed) s"
