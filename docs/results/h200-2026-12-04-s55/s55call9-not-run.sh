#!/usr/bin/env bash
# Session 55, call 9 (the last 150 s of device time): the fused add's cluster shares of 1792
# vectors on 512 threads (57344 on 4 CTAs, 114688 on 8) with an fp32 weight spill 96-112 bytes
# under their floor of 2; the weight late without the floor, as the 14336 rule, one process.
source "$(dirname "$0")/../scripts/device_call.sh" s55call9
build_cli > /dev/null || exit 1
call_deadline=85
bench_run cspill-r1 --op fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 1024 --hidden 57344,114688 --compare "default;residency=1,minb=0;minb=0"
rounds_side_by_side cspill 1
echo "done at $(elapsed) s"
