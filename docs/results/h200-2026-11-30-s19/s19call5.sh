#!/usr/bin/env bash
# Device call 5 (session 19): which decode-latency state a PyTorch process is in
# (scripts/decode_state_torch.py). Carry: .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
PYTHONPATH=python NORMJIT_LIBRARY=build-gpu/libnormjit.so timeout 120 python3 scripts/decode_state_torch.py 2>&1 | tee "$R/decode-state-torch.txt"
