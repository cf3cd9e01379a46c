#!/usr/bin/env bash
# Device call 1 (session 22, at 17f5dc9's kernels): the re-read rows' second pass in batches
# (every load of a batch before its first store; build-tmp/tpl_batch = 2 items, tpl_batch4 = 4)
# against the embedded templates, one process per variant, ABAB. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s22call1.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
T=$PWD/build-tmp
ab() { timeout 170 python3 scripts/template_ab.py --normjit build-gpu/normjit "$@"; }
ab base b2=$T/tpl_batch b4=$T/tpl_batch4 base2=base b2b=$T/tpl_batch b4b=$T/tpl_batch4 -- \
  --op rmsnorm --tokens 8192,32768 --hidden 4096,8192,16384 --reps 50 > "$R/batch-rms.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/batch-rms.txt"
ab base b2=$T/tpl_batch base2=base b2b=$T/tpl_batch -- \
  --op rmsnorm --tokens 8192,32768 --hidden 8192 --config minb=4 --reps 50 > "$R/batch-rms8192-minb4.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/batch-rms8192-minb4.txt"
ab base b2=$T/tpl_batch base2=base b2b=$T/tpl_batch -- \
  --op fused_add_rmsnorm --tokens 8192,32768 --hidden 8192 --reps 50 > "$R/batch-fused.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/batch-fused.txt"
ab base b2=$T/tpl_batch base2=base b2b=$T/tpl_batch -- \
  --op rmsnorm --tokens 1024,4096 --hidden 32768 --reps 30 > "$R/batch-wide.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/batch-wide.txt"
