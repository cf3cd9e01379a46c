#!/usr/bin/env bash
# Device call 2 (session 17, at 2a39c72): interleaved compares (normjit bench --compare) of the
# bulk rmsnorm shapes where torch.compile max-autotune leads by 0.2-1.5 %, and of the 3-D
# per-head shapes, against re-read / occupancy variants. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s17call2.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
C() { $nj bench --op rmsnorm "$@" | grep -v "^device\|^op "; }
{
  C --hidden 2048 --tokens 8192,32768 --reps 40 --compare "default;tpr=128,residency=2,loads=3;tpr=128,residency=2,loads=3,minb=16;tpr=256,residency=2,loads=3,minb=8;tpr=256;tpr=128,minb=12"
  C --hidden 4096 --tokens 8192,32768 --reps 40 --compare "default;minb=8;tpr=512,residency=2,loads=3,minb=4;tpr=128,residency=2,loads=3,minb=16;tpr=256,residency=0,pin_weight=1"
  C --hidden 8192 --tokens 8192,32768 --reps 40 --compare "default;minb=4;tpr=1024,residency=2,loads=3,minb=2;tpr=256,residency=2,loads=3,minb=8"
  C --hidden 16384 --tokens 8192,32768 --reps 30 --compare "default;minb=4;tpr=1024,residency=2,loads=3,minb=2;minb=3"
} > "$R/bulk-compare.txt" 2>&1
echo "bulk at $(( $(date +%s) - start )) s"; cat "$R/bulk-compare.txt"
{
  C --hidden 128 --tokens 65536,221184,262144 --reps 60 --compare "default;rpt=2,tpr=8,rpb=32;rpt=2,tpr=8,rpb=8;rpt=2,tpr=4,rpb=32;rpt=2,tpr=16,rpb=8;rpt=1;tpr=8,rpb=16,residency=2,loads=3"
  C --hidden 256 --tokens 32768 --reps 60 --compare "default;rpt=2,tpr=16,rpb=16;rpt=2,tpr=32,rpb=4;rpt=2,tpr=8,rpb=16;rpt=1"
  C --hidden 64 --tokens 131072 --reps 60 --compare "default;rpt=2,tpr=4,rpb=32;rpt=2,tpr=8,rpb=16;tpr=8,rpb=16;tpr=4,rpb=64"
} > "$R/3d-compare.txt" 2>&1
echo "3d at $(( $(date +%s) - start )) s"; cat "$R/3d-compare.txt"
