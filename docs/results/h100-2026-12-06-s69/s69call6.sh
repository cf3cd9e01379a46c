#!/usr/bin/env bash
# Session 69, call 6 (carry build-tmp .devdeps cache/prewarmed): choose_config now remembers a forced
# config's answer: bench --latency's host cost with a forced config against the default's, and
# a forced-config GPU test (overrides changed between calls) against the float64 reference.
source "$(dirname "$0")/../scripts/device_call.sh" s69call6
call_deadline=${CALL_DEADLINE:-200}
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
build_cli test_gpu || exit 1
lat default
lat c1t512 --config cluster=1,tpr=512
lat c2r2t128 --config cluster=2,rpb=2,tpr=128
grep -h "host cost per call" $R/latency-*.txt | sed 's/.*overhead/overhead/'
python3 scripts/latency_compare.py $R/latency-default.txt $R/latency-c1t512.txt $R/latency-c2r2t128.txt | grep " 128 \| 32   8192"
timeout 100 build-gpu/tests/gpu/test_gpu "forced configs: every residency with narrow and wide row groups" > $R/test-forced.txt 2>&1; echo "forced test rc=$?"; tail -2 $R/test-forced.txt
echo "done at $(elapsed) s"
