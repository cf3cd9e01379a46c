#!/usr/bin/env bash
# Device call 3 (session 13): the PTX and launch shape of the Triton kernels torch.compile runs
# for rmsnorm at the shapes where max-autotune leads (8192x16384, 32768x4096, 8192x8192) and
# 512x16384 (default leads). Carry: build-tmp.
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s13call3.tgz r' EXIT
export TRITON_CACHE_DIR=$(mktemp -d) TORCHINDUCTOR_CACHE_DIR=$(mktemp -d)
export TORCHINDUCTOR_FORCE_DISABLE_CACHES=1
timeout 400 python3 build-tmp/inductor_ptx.py "$R/ptx" > "$R/launches.txt" 2> "$R/stderr.txt"
echo "rc=$?"; grep -v "^$" "$R/launches.txt"; tail -5 "$R/stderr.txt"
ls "$R/ptx" | wc -l
