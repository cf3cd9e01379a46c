#!/usr/bin/env bash
# Device call 8 (session 22): what torch.compile runs where it led this run: rmsnorm 1024 x 32768
# (default mode) and 8192 x 2048 (default and max-autotune), with launches and PTX. No build.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s22call8.tgz r' EXIT
timeout 240 python3 scripts/peers/inductor_kernels.py --shapes rms:1024x32768,rms:8192x2048 --launches \
  --ptx-dir "$R/ptx" > "$R/inductor.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; grep -E "=====|kept config|launch:" "$R/inductor.txt"
