#!/usr/bin/env bash
# Session 56, call 4: the three rules of the tree, as rules, against what they replaced: rows of an
# odd vector count of 2049-4095 on the one-CTA wide layouts; the fused add's cluster shares of
# >1536 vectors with an fp32 weight (or f16 rows) loading the weight late without a floor; bf16
# part-filled fourth items at register usage level 2. Then the GPU switch tests (the new cases).
# Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s56call4
build_cli test_gpu > /dev/null || exit 1
call_deadline=300
for r in 1 2; do
  bench_run odd-r$r --op fused_add_rmsnorm --dtype bf16 --tokens 1024,8192 --hidden 16392,20488,25608,29704,31752 \
    --compare "default;residency=2,loads=1,minb=0,reg_usage=-1;reg_usage=-1"
  bench_run oddr1k-r$r --op rmsnorm --dtype bf16 --tokens 1024 --hidden 16392,20488,25608,31752 \
    --compare "default;residency=1,loads=0,minb=0,reconvert=0"
  bench_run oddr8k-r$r --op rmsnorm --dtype bf16 --tokens 8192 --hidden 16392,20488,25608,31752 \
    --compare "default;residency=1,loads=0,minb=0,reconvert=0,keep_out=1"
done
bench_run oddf16-r1 --op fused_add_rmsnorm,gemma_fused_add_rmsnorm --dtype f16 --tokens 1024,8192 --hidden 20488,27656 \
  --compare "default;residency=2,loads=1,minb=0"
bench_run late-r1 --op fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 1024,4096 --hidden 50176,53248,106496 \
  --compare "default;residency=0,minb=2"
bench_run latef16-r1 --op fused_add_rmsnorm --dtype f16 --tokens 1024,4096 --hidden 53248,106496,122880 \
  --compare "default;residency=0,minb=2"
for n in odd oddr1k oddr8k; do rounds_side_by_side $n 2; done
for n in oddf16 late latef16; do rounds_side_by_side $n 1; done
for t in "default configs at the row counts that switch kernels" \
         "default configs at the row counts that switch kernels: an fp32 weight beside 16-bit rows"; do
  NORMJIT_CACHE_DIR=$(mktemp -d) timeout 120 build-gpu/tests/gpu/test_gpu "$t" >> "$R/switch-tests.txt" 2>&1
  echo "test rc=$? at $(elapsed) s"; tail -2 "$R/switch-tests.txt"
done
echo "done at $(elapsed) s"
