#!/usr/bin/env bash
# Session 59, call 1 (not run: no device machine was lent in session 59; copy it to build-tmp/ and
# rename to the session's call): the GPU tests' kernels under compute-sanitizer for the first time
# (scripts/gpu_sanitize.sh: memcheck with every test buffer ending at its last row, racecheck,
# synccheck, initcheck over the test cases that launch every kernel family; ~8 minutes shared by
# 17 runs, each stopped at its share). compute-sanitizer ran on the Firecracker machines and refused
# the device on gVisor (KINDS.md, 2026-11-04): the summary says which this one is. Carry build-tmp
# .devdeps cache/prewarmed (the forced configs compile; the defaults come from the prewarmed cache).
source "$(dirname "$0")/../scripts/device_call.sh" s62call2
"${CS:-compute-sanitizer}" --version 2>&1 | head -2
OUT=$R timeout $(( ${SAN_BUDGET:-500} + 70 )) bash scripts/gpu_sanitize.sh ${SAN_BUDGET:-500} > "$R/gpu-sanitize.txt" 2>&1
echo "sanitize rc=$? at $(elapsed) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-sanitize.txt"
grep -E -m 20 -A6 "^========= (Invalid|Race|Barrier|Uninitialized|Misaligned|Out-of-range|Program hit|Cluster|Error)" "$R"/sanitize-*.log | head -80
echo "done at $(elapsed) s"
