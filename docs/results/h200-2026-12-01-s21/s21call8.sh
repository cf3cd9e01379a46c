#!/usr/bin/env bash
# Device call 8 (session 21): rms_norm_rows reducing and storing row by row, with every load
# pinned ahead of the first reduction (build-tmp/tpl_seq: 64 registers at four rows a thread
# where the base takes 95, 48 at two where it takes 55), against the base, one process each,
# twice; then the GPU tests of rows per thread and per-head rows with that variant.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s21call8.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli test_gpu > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 100 python3 scripts/template_ab.py --normjit build-gpu/normjit base seq=build-tmp/tpl_seq base2=base seq2=build-tmp/tpl_seq -- \
  --op rmsnorm --tokens 65536,221184,262144 --hidden 128 --reps 40 > "$R/seq-ab-128.txt" 2>&1
echo "ab128 rc=$? at $(( $(date +%s) - start )) s"; cat "$R/seq-ab-128.txt"
timeout 50 python3 scripts/template_ab.py --normjit build-gpu/normjit base seq=build-tmp/tpl_seq -- \
  --op rmsnorm --tokens 32768,131072 --hidden 256 --reps 40 > "$R/seq-ab-256.txt" 2>&1
echo "ab256 rc=$? at $(( $(date +%s) - start )) s"; cat "$R/seq-ab-256.txt"
T=$(find build-gpu -name test_gpu -type f | head -1)
NORMJIT_TEMPLATE_DIR=$PWD/build-tmp/tpl_seq NORMJIT_CACHE_DIR=$(mktemp -d) timeout 80 "$T" "[3d],default configs at the row counts that switch kernels" > "$R/tests-seq.txt" 2>&1
echo "tests rc=$? at $(( $(date +%s) - start )) s"; tail -4 "$R/tests-seq.txt"
