#!/usr/bin/env bash
# Session 70, call 2 (carry build-tmp .devdeps): pin_weight 5 (every weight load after the block's
# reciprocal) against the default at the decode sizes, memset and kernel fills, one process each,
# alternated; its correctness over every op (the pins' GPU test); decode_anatomy's W and R steps.
source "$(dirname "$0")/../scripts/device_call.sh" s70call2
call_deadline=${CALL_DEADLINE:-540}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1
build_cli test_gpu || exit 1
timeout 120 build-gpu/tests/gpu/test_gpu "forced configs: the weight pinned*" > "$R/test-pins.txt" 2>&1
echo "pins test rc=$? at $(elapsed) s"; tail -3 "$R/test-pins.txt"
L=$R/latency
lat default
lat pwr --config pin_weight=5
lat default2
lat pwr2 --config pin_weight=5
lat kdefault --fill kernel
lat kpwr --fill kernel --config pin_weight=5
python3 scripts/latency_compare.py $L-default.txt $L-pwr.txt $L-default2.txt $L-pwr2.txt
python3 scripts/latency_compare.py $L-kdefault.txt $L-kpwr.txt
timeout 60 build-tmp/decode_anatomy --script W > "$R/anatomy-w.txt" 2>&1; echo "anatomy W rc=$? at $(elapsed) s"; cat "$R/anatomy-w.txt"
timeout 60 build-tmp/decode_anatomy --script R > "$R/anatomy-r.txt" 2>&1; echo "anatomy R rc=$? at $(elapsed) s"; cat "$R/anatomy-r.txt"
echo "done at $(elapsed) s"
