#!/usr/bin/env bash
# Device call 2 (session 16): (1) the weight read with L1/L2 evict-last hints by re-read rows (wl)
# and also by held rows (wl0), against base, at rmsnorm 16384 (256-8192 rows), 4096/8192 and the
# 3-D shape 65536 x 128; the same for the re-read t512 b4 config forced at 384-768 x 16384;
# (2) forced configs at 512 x 16384 (2-CTA clusters holding halves) and at the 16 MiB 3-D shapes
# (occupancy, CTA shape). Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s16call2.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
AB() { python3 scripts/template_ab.py --normjit $nj base wl=build-tmp/tpl16-wl wl0=build-tmp/tpl16-wl0 -- "$@"; }
{
  echo "## defaults, round 1"
  AB --op rmsnorm --tokens 256,384,512,768,1024,2048,8192 --hidden 16384 --reps 40
  AB --op rmsnorm --tokens 512,2048,8192 --hidden 4096,8192 --reps 40
  AB --op rmsnorm --tokens 65536 --hidden 128 --reps 40
  echo "## forced tpr=512,residency=2,minb=4,loads=3"
  AB --op rmsnorm --tokens 384,512,768 --hidden 16384 --reps 40 --config tpr=512,residency=2,minb=4,loads=3
  echo "## defaults, round 2"
  AB --op rmsnorm --tokens 384,512,768,2048 --hidden 16384 --reps 40
} > "$R/wl-ab.txt" 2>&1
echo "ab at $(( $(date +%s) - start )) s"; cat "$R/wl-ab.txt"
F() { echo "-- $1 ${2:-default}"; $nj bench --reps 40 --op rmsnorm --tokens $1 ${2:+--config $2} 2>&1 | grep -E "^rmsnorm|rror"; }
{
  for c in "" cluster=2,tpr=256,residency=0 cluster=2,tpr=512,residency=0 cluster=2,tpr=256,residency=1; do F "384,512,768 --hidden 16384" "$c"; done
  for c in "" minb=16 tpr=16,rpb=4 tpr=8,rpb=8 tpr=16,rpb=8,minb=16 tpr=4,rpb=32 tpr=8,rpb=16,minb=16 ""; do
    F "65536,221184 --hidden 128" "$c"; F "32768 --hidden 256" "$c"; done
} > "$R/forced.txt" 2>&1
cat "$R/forced.txt"
echo "done at $(( $(date +%s) - start )) s"
