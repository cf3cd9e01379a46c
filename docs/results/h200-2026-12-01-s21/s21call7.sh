#!/usr/bin/env bash
# Device call 7 (session 21): torch.compile's per-head kernels (head_dim 128 at 65536 and 221184
# rows) with their PTX and cubins, to compare their register use with normjit's four-rows kernel
# (95 registers against 64). Carry: build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s21call7.tgz r' EXIT
timeout 200 python3 scripts/peers/inductor_kernels.py --shapes rms:221184x128,rms:65536x128 --modes default --launches --ptx-dir "$R/ptx" > "$R/inductor.txt" 2>&1
echo "inductor rc=$? at $(( $(date +%s) - start )) s"; grep "^launch\|^kept\|^PTX" "$R/inductor.txt"; ls "$R/ptx" | head -20
