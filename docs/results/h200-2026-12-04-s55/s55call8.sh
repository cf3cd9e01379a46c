#!/usr/bin/env bash
# Session 55, call 8: the fp32-weight rules as they stand (the tree): the GPU tests of them (the
# switch cases with an fp32 weight; bench --weight-dtype), the last two rules against what they
# replaced, and the fp32-weight grid again (as call 5) for the figures. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s55call8
build_cli test_gpu > /dev/null || exit 1
for t in "default configs at the row counts that switch kernels: an fp32 weight beside 16-bit rows" \
         "bench --weight-dtype times rows with a weight of another dtype"; do
  NORMJIT_CACHE_DIR=$(mktemp -d) timeout 150 build-gpu/tests/gpu/test_gpu "$t" >> "$R/f32w-tests.txt" 2>&1
  echo "test rc=$? at $(elapsed) s"; tail -2 "$R/f32w-tests.txt"
done
call_deadline=270
bench_run rule-r1 --op fused_add_rmsnorm --dtype bf16,f16 --weight-dtype f32 --tokens 512,8192 --hidden 14336,15360 --compare "default;residency=0,minb=2"
bench_run rule2-r1 --op rmsnorm --dtype bf16 --weight-dtype f32 --tokens 8192,32768 --hidden 13312,15360 --compare "default;minb=4"
bench_run wgrid-r1 --op rmsnorm,fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 1,128,2048,32768 --hidden 2048,4096,8192,16384
for n in rule rule2; do rounds_side_by_side $n 1; done
echo "== wgrid"; grep -E "^(rmsnorm|fused)" "$R/wgrid-r1.txt" | awk '{printf "%s %s %s %s %s %s %s\n",$1,$2,$3,$4,$5,$6,$10}'
echo "done at $(elapsed) s"
