#!/usr/bin/env bash
# Session 70, call 4 (carry build-tmp): decode_anatomy's step E, the journal of the plain norm
# against step R's form of it (the column arithmetic alone), which ran 0.03-0.12 us faster in calls
# 1-2; twice, then step R once more.
source "$(dirname "$0")/../scripts/device_call.sh" s70call4
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1
timeout 120 build-tmp/decode_anatomy --script E > "$R/anatomy-e.txt" 2>&1; echo "anatomy E rc=$? at $(elapsed) s"; cat "$R/anatomy-e.txt"
timeout 60 build-tmp/decode_anatomy --script R > "$R/anatomy-r.txt" 2>&1; echo "anatomy R rc=$? at $(elapsed) s"; cat "$R/anatomy-r.txt"
