#!/usr/bin/env bash
# Session 57, call 3: the whole GPU suite (scripts/gpu_suite.sh: GPU ctest, pytest, the prewarmed
# cache offline, bench --latency) on this session's final heuristics (the fused add's odd counts
# held on one CTA at every row count, own or fp32 weight; level 2 for bf16 rows with an fp32
# weight past 3072 vectors and for the bf16 fused add's 1025-2047-vector rows at 33-255 rows).
# Carry build-tmp .devdeps .whl cache/prewarmed.
source "$(dirname "$0")/../scripts/device_call.sh" s57call3
gpu_suite_summary 575
echo "done at $(elapsed) s"
