#!/usr/bin/env bash
# Session 65, call 7 (carry build-tmp): call 6 again, with specs so that G allocates (call 6 gave none, so its G did nothing): is the slow decode state (after cudaMalloc + cudaMemset of
# new buffers, "Nineteenth run") the SMs' L1/shared-memory split? The anatomy's steps (A) before
# and after entering the state (G), with every timed kernel's carveout preference at the driver's
# default, 0 (V, the most L1), 100 (Q, the most shared memory) and -1 again (D).
source "$(dirname "$0")/../scripts/device_call.sh" s65call7
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o build-tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
echo "built at $(elapsed) s"
timeout 150 build-tmp/decode_anatomy --flush --script AGAVAQADA a=none:rms:128:4096:128 b=none:fused:128:2048:256 > "$R/carveout.txt" 2>&1; echo "rc=$? at $(elapsed) s"
cat "$R/carveout.txt"
echo "done at $(elapsed) s"
