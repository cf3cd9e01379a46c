#!/usr/bin/env bash
# Session 48, call 3: the held-share rule with every item of the weight pinned (call 2: f16 36864
# and 38912 ran 11-12 % faster so than with the full items pinned, and 6 % faster than the old
# default): the GPU case for the new defaults against the reference, then the new default against
# full items pinned and against the old default, bf16 and f16, 36864/38912/40960, 1024 and 4096
# rows, two rounds in separate processes.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s48call3
build_cli test_gpu > /dev/null || exit 1
NORMJIT_CACHE_DIR=$(mktemp -d) ctest --test-dir build-gpu -L gpu -R "held on 8-CTA" --output-on-failure > $R/held-test.txt 2>&1
echo "held test rc=$? at $(elapsed) s"; grep -E "tests passed|Failed|assertions" $R/held-test.txt
call_deadline=250
h="cluster=8,tpr=128,residency=0,minb=8"
for r in 1 2; do
  bench_run pin-r$r --op rmsnorm --dtype bf16,f16 --hidden 36864,38912,40960 --tokens 1024,4096 \
    --compare "default;$h,pin_weight=2,reconvert=1;cluster=4,tpr=256,residency=4,minb=8,pin_weight=0,reconvert=0"
done
rounds_side_by_side pin 2
echo "done at $(elapsed) s"
