#!/usr/bin/env bash
# Device call 2 (session 23): prototype -- short rows on a persistent grid (weights once per
# thread, grid-stride row blocks, optionally pipelined) against the library's template kernels.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s23call2.tgz r' EXIT
timeout 250 build-tmp/gx/short_bench 60 > "$R/short-round1.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/short-round1.txt"
