#!/usr/bin/env bash
# Session 58, call 2 (not run: no device machine was lent in session 58; copy it to build-tmp/ and
# rename to the session's call): the whole GPU suite (scripts/gpu_suite.sh: GPU ctest, pytest, the
# prewarmed cache offline, bench --latency) on session 58's host path (no per-call zero-fills or
# divisions: the fake driver put normjit's own cost at 97 ns a warm call against 123 on the CPU
# machine; a decoder layer's norms in turn 191 -> 134 ns a call); bench --latency's host cost is
# target 6's figure, and it now prints the in-turn host cost beside it (bbad391). Carry build-tmp .devdeps .whl
# cache/prewarmed (no kernel changed since session 57, so its prewarmed cache serves it; if
# s58call1's patch is applied first, re-prewarm it: ./build/normjit prewarm --manifest all --arch
# sm_90 --cache-dir cache/prewarmed).
source "$(dirname "$0")/../scripts/device_call.sh" s60call1
gpu_suite_summary 575
echo "done at $(elapsed) s"
