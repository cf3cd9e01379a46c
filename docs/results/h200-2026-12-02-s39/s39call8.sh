#!/usr/bin/env bash
# Session 39, call 8: keep_out=1 (L2 evict-last output stores) on rmsnorm beyond call 7's range:
# outputs of 512 MiB (hidden 2048, 4096, 8192), rows of 64 (dense 2-D at 96-256 MiB), strided
# per-head rows of 64 and 128 (q of a qkv view) at 64-128 MiB. Two rounds in separate processes.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s39call8
build_cli || exit 1
call_deadline=400
C="default;keep_out=1"
for r in 1 2; do
  bench_run big-r$r --op rmsnorm --dtype bf16 --hidden 2048 --tokens 131072 --compare "$C"
  bench_run big4-r$r --op rmsnorm --dtype bf16 --hidden 4096 --tokens 65536 --compare "$C"
  bench_run big8-r$r --op rmsnorm --dtype bf16 --hidden 8192 --tokens 32768 --compare "$C"
  bench_run h64-r$r --op rmsnorm --dtype bf16 --hidden 64 --tokens 786432,1048576,2097152 --compare "$C"
  bench_run s64-r$r --op rmsnorm --dtype bf16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 16384,32768 --compare "$C"
  bench_run s128-r$r --op rmsnorm --dtype bf16 --hidden 128 --heads 32 --qkv-heads 48 --tokens 16384 --compare "$C"
  bench_run c64-r$r --op rmsnorm --dtype bf16 --hidden 64 --heads 32 --tokens 16384,32768 --compare "$C"
done
for n in big big4 big8 h64 s64 s128 c64; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
