#!/usr/bin/env bash
# Session 39, call 7: where L2 evict-last output stores (keep_out=1) pay for rmsnorm: bf16 rows of
# 128-16384 elements at outputs of 48, 64, 96, 128 and 256 MiB (rows = MiB / row bytes), default /
# keep_out=1 interleaved, two rounds in separate processes; fp32 rows of 1024-4096 likewise.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s39call7
build_cli || exit 1
call_deadline=500
C="default;keep_out=1"
for r in 1 2; do
  bench_run m128-r$r --op rmsnorm --dtype bf16 --hidden 128 --tokens 196608,262144,393216,524288,1048576 --compare "$C"
  bench_run m256-r$r --op rmsnorm --dtype bf16 --hidden 256 --tokens 98304,131072,196608,262144,524288 --compare "$C"
  bench_run m512-r$r --op rmsnorm --dtype bf16 --hidden 512 --tokens 49152,65536,98304,131072,262144 --compare "$C"
  bench_run m1024-r$r --op rmsnorm --dtype bf16 --hidden 1024 --tokens 24576,32768,49152,65536,131072 --compare "$C"
  bench_run m1536-r$r --op rmsnorm --dtype bf16 --hidden 1536 --tokens 16384,21845,32768,43690,87381 --compare "$C"
  bench_run m2048-r$r --op rmsnorm --dtype bf16 --hidden 2048 --tokens 12288,16384,24576,32768,65536 --compare "$C"
  bench_run m2560-r$r --op rmsnorm --dtype bf16 --hidden 2560 --tokens 9830,13107,19660,26214,52428 --compare "$C"
  bench_run m3072-r$r --op rmsnorm --dtype bf16 --hidden 3072 --tokens 8192,10922,16384,21845,43690 --compare "$C"
  bench_run m4096-r$r --op rmsnorm --dtype bf16 --hidden 4096 --tokens 6144,8192,12288,16384,32768 --compare "$C"
  bench_run m5120-r$r --op rmsnorm --dtype bf16 --hidden 5120 --tokens 4915,6553,9830,13107,26214 --compare "$C"
  bench_run m6144-r$r --op rmsnorm --dtype bf16 --hidden 6144 --tokens 4096,5461,8192,10922,21845 --compare "$C"
  bench_run m8192-r$r --op rmsnorm --dtype bf16 --hidden 8192 --tokens 3072,4096,6144,8192,16384 --compare "$C"
  bench_run m16384-r$r --op rmsnorm --dtype bf16 --hidden 16384 --tokens 1536,2048,3072,4096,8192 --compare "$C"
  bench_run f1024-r$r --op rmsnorm --dtype f32 --hidden 1024 --tokens 16384,32768,65536 --compare "$C"
  bench_run f2048-r$r --op rmsnorm --dtype f32 --hidden 2048 --tokens 8192,16384,32768 --compare "$C"
  bench_run f4096-r$r --op rmsnorm --dtype f32 --hidden 4096 --tokens 4096,8192,16384 --compare "$C"
done
for n in m128 m256 m512 m1024 m1536 m2048 m2560 m3072 m4096 m5120 m6144 m8192 m16384 f1024 f2048 f4096; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
