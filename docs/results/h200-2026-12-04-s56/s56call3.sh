#!/usr/bin/env bash
# Session 56, call 3: (a) the fused add's cluster shares of 512 threads with an fp32 weight beside
# 16-bit rows (hidden 36864-122880): call 2 found the weight loaded late without the floor of 2
# 26-27 % faster at 57344 / 114688 (the floor spills 112 bytes); here the other widths and the
# late weight under the floor. (b) the same-type f16 fused add at 57344 / 114688 (24 / 56 bytes of
# stack under the floor). (c) reg_usage=2 on bf16 fused add rows with a part-filled fourth item a
# thread, rows 128-byte aligned (25600 27648 29696 31744) or not (25608 27656 29704 31752): call 2
# found 5 % at 26640 / 30736, none at 28672. Interleaved in one process. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s56call3
build_cli > /dev/null || exit 1
call_deadline=480
bench_run f32c-r1 --op fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 1024,4096 \
  --hidden 36864,40960,49152,57344,73728,81920,98304,114688,122880 --compare "default;residency=1,minb=0;residency=1"
bench_run f32cf16-r1 --op fused_add_rmsnorm,gemma_fused_add_rmsnorm --dtype f16 --weight-dtype f32 --tokens 1024 \
  --hidden 49152,57344,98304,114688 --compare "default;residency=1,minb=0"
bench_run samec-r1 --op fused_add_rmsnorm --dtype f16,bf16 --tokens 1024,4096 --hidden 57344,114688 \
  --compare "default;minb=0;residency=1,minb=0;residency=1"
for r in 1 2; do
  bench_run al-r$r --op fused_add_rmsnorm --dtype bf16 --tokens 1024,8192 \
    --hidden 25600,25608,27648,27656,29696,29704,31744,31752 --compare "default;reg_usage=2"
done
rounds_side_by_side f32c 1
rounds_side_by_side f32cf16 1
rounds_side_by_side samec 1
rounds_side_by_side al 2
echo "done at $(elapsed) s"
