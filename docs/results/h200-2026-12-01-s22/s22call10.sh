#!/usr/bin/env bash
# Device call 10 (session 22, 0704e1a): the re-read's first pass in two rounds of loads, as
# torch.compile's loop over two chunks does (build-tmp/tpl_fp2: `#pragma unroll 2` there, not 4),
# against the embedded templates, one process each, ABAB. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s22call10.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
T=$PWD/build-tmp
timeout 150 python3 scripts/template_ab.py --normjit build-gpu/normjit base fp2=$T/tpl_fp2 base2=base fp2b=$T/tpl_fp2 -- \
  --op rmsnorm --tokens 1024,4096 --hidden 32768 --reps 40 > "$R/firstpass.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/firstpass.txt"
timeout 100 python3 scripts/template_ab.py --normjit build-gpu/normjit base fp2=$T/tpl_fp2 base2=base fp2b=$T/tpl_fp2 -- \
  --op rmsnorm --tokens 8192,32768 --hidden 16384 --reps 30 > "$R/firstpass16384.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"; cat "$R/firstpass16384.txt"
