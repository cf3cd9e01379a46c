#!/usr/bin/env bash
# Session 65, call 6 (carry build-tmp): is the slow decode state (after cudaMalloc + cudaMemset of
# new buffers, "Nineteenth run") the SMs' L1/shared-memory split? The anatomy's steps (A) before
# and after entering the state (G), with every timed kernel's carveout preference at the driver's
# default, 0 (V, the most L1), 100 (Q, the most shared memory) and -1 again (D).
source "$(dirname "$0")/../scripts/device_call.sh" s65call6
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o build-tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
echo "built at $(elapsed) s"
timeout 150 build-tmp/decode_anatomy --flush --script AVAQADGAVAQADA > "$R/carveout.txt" 2>&1; echo "rc=$? at $(elapsed) s"
cat "$R/carveout.txt"
echo "done at $(elapsed) s"
