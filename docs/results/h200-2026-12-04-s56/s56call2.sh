#!/usr/bin/env bash
# Session 56, call 2 (session 55 call 10 and call 9): KernelConfig::reg_usage
# (ptxas --register-usage-level) on the kernels whose loads issue late. At level 2 the bf16 fused
# add's held rows with a part-filled fourth item on 1024 threads (24592-31760) issue all row loads
# together (late_loads.py on their SASS; 50 registers, 52 at the default), as f16's do; bf16 ran
# 3-5 % behind f16 at 26640 (call 1). Interleaved in one process, two rounds; f16 beside it as the
# reference; then rmsnorm's 11-item 512-thread rows (late load at 41984-45056) the same way.
# Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s56call2
build_cli > /dev/null || exit 1
call_deadline=470
for r in 1 2; do
  bench_run ru-r$r --op fused_add_rmsnorm,gemma_fused_add_rmsnorm --dtype bf16 --tokens 1024,2048,8192 \
    --hidden 24592,26640,28672,30736 --compare "default;reg_usage=2;reg_usage=0"
done
bench_run ruf16-r1 --op fused_add_rmsnorm --dtype f16 --tokens 1024,8192 --hidden 26640,28672 --compare "default;reg_usage=2"
bench_run ru11-r1 --op rmsnorm --dtype bf16 --tokens 1024,4096 --hidden 41984,45056 --compare "default;reg_usage=2"
rounds_side_by_side ru 2
for n in ruf16 ru11; do rounds_side_by_side $n 1; done
bench_run cspill-r1 --op fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 1024,4096 --hidden 57344,114688 --compare "default;residency=1,minb=0;minb=0"
rounds_side_by_side cspill 1
echo "done at $(elapsed) s"
