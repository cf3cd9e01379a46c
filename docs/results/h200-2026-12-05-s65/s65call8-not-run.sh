#!/usr/bin/env bash
# Session 65, call 8 (not run: no device time left; carry build-tmp): where the slow decode state
# puts its time. decode_anatomy's new step J stamps %globaltimer in every CTA of every launch of
# a 100-launch PDL graph (entry, after the PDL wait, after the last store) and prints, per kernel,
# the medians of the release latency (`wait`: the previous launch's last store to this launch's
# first release), the body, the releases' spread and how early CTAs were resident, and (since
# session 66) the body's phases in SM cycles (x in, reduced, weight in, stored), before and after
# entering the state (G). Copy it to build-tmp/ and run `bash build-tmp/s65call8-not-run.sh`.
source "$(dirname "$0")/../scripts/device_call.sh" s65call8
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o build-tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
echo "built at $(elapsed) s"
timeout 200 build-tmp/decode_anatomy --flush --script AJGAJ a=none:rms:128:4096:128 b=none:fused:128:2048:256 \
  > "$R/journal.txt" 2>&1; echo "rc=$? at $(elapsed) s"
cat "$R/journal.txt"
echo "done at $(elapsed) s"
