#!/usr/bin/env bash
# Device call 1 (session 21): isolated checks of open leads and torch.compile's per-head PTX.
# Carry: build-tmp .devdeps .whl
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s21call1.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
B=build-gpu/normjit
cmp() { name=$1; shift; timeout 120 $B bench "$@" > "$R/$name.txt" 2>&1; echo "== $name rc=$? at $(( $(date +%s) - start )) s"; grep -v "^#" "$R/$name.txt" | tail -n +3; }
# 1. rmsnorm 33-255 rows of 4096 on 256 threads (graph lead: 1.404 against 1.473 us)
cmp tpr256-iso --op rmsnorm --tokens 48,128,200 --hidden 4096 --reps 60 --compare "default;tpr=256;default;tpr=256"
# 2. the few-row clusters' weight prefetch bit, isolated (not timed in session 20)
cmp pfw-rms-iso --op rmsnorm --tokens 1,8,32 --hidden 4096,8192,16384 --reps 60 --compare "default;prefetch=input;default;prefetch=input"
cmp pfw-fused-iso --op fused_add_rmsnorm --tokens 1,8,32 --hidden 4096,8192,16384 --reps 60 --compare "default;prefetch=residual+input;default;prefetch=residual+input"
# 3. short rows: load policies
cmp short-loads --op rmsnorm --tokens 65536,221184 --hidden 128 --reps 40 --compare "default;loads=1;loads=2;loads=4;default"
# 4. rmsnorm 32768 x 2048: torch.compile max-autotune's plan (4 rows a CTA of 512, re-read with hints)
cmp rows2048 --op rmsnorm --tokens 32768 --hidden 2048 --reps 40 --compare "default;rpb=4,residency=2,loads=3;rpb=2,residency=2,loads=3;residency=2,loads=3;rpb=4;default"
# 5. decode graphs, 256 threads against the default, two processes each
lat() { name=$1; shift; timeout 60 $B bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "== latency $name rc=$?"; }
lat default; lat tpr256 --config tpr=256; lat default2; lat tpr256b --config tpr=256
python3 scripts/latency_compare.py $R/latency-default.txt $R/latency-tpr256.txt $R/latency-default2.txt $R/latency-tpr256b.txt > "$R/compare-tpr256.txt" 2>&1
grep -E "rmsnorm +(32|128) x (2048|4096|8192)|^ *op" "$R/compare-tpr256.txt" | head -12
# 6. torch.compile's per-head kernels (PTX), and the 3-D table with and without PDL for normjit
timeout 150 python3 scripts/peers/inductor_kernels.py --shapes rms:65536x128,rms:221184x128 --modes default --launches --ptx-dir "$R/ptx" > "$R/inductor.txt" 2>&1
echo "inductor rc=$? at $(( $(date +%s) - start )) s"; grep "^launch\|^kept" "$R/inductor.txt"
left=$(( 560 - ($(date +%s) - start) ))
REBUILD=0 timeout $(( left / 2 )) bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
left=$(( 570 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --normjit-nopdl --csv "$R/3d-nopdl.csv" > "$R/3d-nopdl.txt" 2> "$R/3d-nopdl-stderr.txt"
echo "3d nopdl rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d-nopdl.txt" | tail -8
echo "done at $(( $(date +%s) - start )) s"
