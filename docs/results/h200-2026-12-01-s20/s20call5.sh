#!/usr/bin/env bash
# Device call 5 (session 20): short rows (per-head norms, head_dim 64-256) with four rows per
# thread against the default two, interleaved in one process (bench --compare).
# Carry: .devdeps build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s20call5.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
timeout 200 build-gpu/normjit bench --op rmsnorm --tokens 221184,262144,65536 --hidden 128 --reps 40 \
  --compare "default;rpt=4;rpt=4,rpb=8;rpt=4,tpr=16,rpb=8;rpt=4,tpr=16,rpb=4;rpt=2,tpr=16,rpb=8" > "$R/rpt4-128.txt" 2>&1
echo "128 rc=$? at $(( $(date +%s) - start )) s"; grep -v "^#" "$R/rpt4-128.txt" | tail -20
timeout 150 build-gpu/normjit bench --op rmsnorm --tokens 32768,131072 --hidden 256 --reps 40 \
  --compare "default;rpt=4;rpt=4,rpb=4;rpt=4,tpr=32,rpb=4" > "$R/rpt4-256.txt" 2>&1
echo "256 rc=$? at $(( $(date +%s) - start )) s"; grep -v "^#" "$R/rpt4-256.txt" | tail -10
echo "done at $(( $(date +%s) - start )) s"
