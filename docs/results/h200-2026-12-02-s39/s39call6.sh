#!/usr/bin/env bash
# Session 39, call 6: L2 evict-last output stores (keep_out=1) on held rmsnorm rows, after call 5
# found rmsnorm 32768 x 2048 1.8 % faster with them (8192 rows 0.9 % slower): where the gain starts
# (2048 at 12288-65536 rows), other dtypes and gemma, other held widths (1024, 3072), and the
# per-head shapes of target 4 (contiguous and strided). Two rounds in separate processes.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s39call6
build_cli || exit 1
call_deadline=480
C="default;keep_out=1"
for r in 1 2; do
  bench_run k2048-r$r --op rmsnorm --dtype bf16 --hidden 2048 --tokens 12288,16384,24576,65536 --compare "$C"
  bench_run kdt-r$r --op rmsnorm,gemma_rmsnorm --dtype f16,bf16 --hidden 2048 --tokens 32768 --compare "$C"
  bench_run kw-r$r --op rmsnorm --dtype bf16 --hidden 1024,3072 --tokens 16384,32768,65536 --compare "$C"
  bench_run k3a-r$r --op rmsnorm --dtype bf16 --hidden 128 --heads 48 --tokens 4608 --compare "$C"
  bench_run k3b-r$r --op rmsnorm --dtype bf16 --hidden 128 --heads 32 --tokens 8192 --compare "$C"
  bench_run k3c-r$r --op rmsnorm --dtype bf16 --hidden 256 --heads 16 --tokens 8192 --compare "$C"
  bench_run k3d-r$r --op rmsnorm --dtype bf16 --hidden 64 --heads 32 --tokens 8192 --compare "$C"
  bench_run k3e-r$r --op rmsnorm --dtype bf16 --hidden 64 --heads 24 --qkv-heads 72 --tokens 8192,16384 --compare "$C"
  bench_run k3f-r$r --op rmsnorm --dtype bf16 --hidden 128 --heads 32 --qkv-heads 48 --tokens 8192 --compare "$C"
done
for n in k2048 kdt kw k3a k3b k3c k3d k3e k3f; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
