#!/usr/bin/env bash
# Device call 8 (session 26): at 4511424 (predicated hinted loads) -- rows of 1025-2047 vectors
# re-read on 1024 threads (torch.compile's plan at 512 x 14336: 1.75 items a thread), which lost
# 24-34 % in session 25 when the part-filled item's load was branched around. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s26call8.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 200 build-gpu/normjit bench --op rmsnorm --tokens 512,8192,32768 --hidden 10240,12288,14336 --reps 30 --compare \
  "default;tpr=1024,residency=2,loads=3,minb=0,pin_weight=0;tpr=1024,residency=2,loads=0,minb=0,pin_weight=0" > "$R/t1024-call8.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; grep -v "^device" "$R/t1024-call8.txt" | cut -c1-118
