#!/usr/bin/env bash
# Device call 2 (session 25): the new rules for rows whose vector count is not a power of two
# (uncommitted tree) -- pinned weight at the fused add's 2560/3584 from 8192 rows; rmsnorm
# 10240-14336 below kHintedWideRows; 128 threads for rows of 1280 vectors; fp32 rows of 640-1792
# 4-vectors (hidden 2560-7168). Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s25call2.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
timeout 60 $nj bench --op fused_add_rmsnorm --tokens 2048,8192,32768 --hidden 2560,3584 --reps 20 \
  --compare "default;pin_weight=0;default" > "$R/pin-narrow-call2.txt" 2>&1
echo "pin rc=$? at $(( $(date +%s) - start )) s"
timeout 70 $nj bench --op rmsnorm --tokens 512,1024,2048 --hidden 10240,12288,14336 --reps 20 \
  --compare "default;tpr=256,rpb=1,residency=0,loads=0,minb=0;tpr=512,rpb=1,residency=2,loads=3,minb=0;tpr=128,rpb=1,residency=0,loads=0,minb=0;default" > "$R/mid-rms-call2.txt" 2>&1
echo "mid rms rc=$? at $(( $(date +%s) - start )) s"
timeout 60 $nj bench --op rmsnorm,fused_add_rmsnorm --tokens 2048,8192,32768 --hidden 10240 --reps 20 \
  --compare "default;tpr=128,rpb=1,residency=0,loads=0,minb=0,pin_weight=0;tpr=256,rpb=1,residency=0,loads=0,minb=0,pin_weight=0;default" > "$R/t128-10240-call2.txt" 2>&1
echo "t128 rc=$? at $(( $(date +%s) - start )) s"
timeout 200 $nj bench --op rmsnorm,fused_add_rmsnorm --dtype f32 --tokens 512,2048,8192,32768 --hidden 2560,5120,7168 --reps 15 \
  --compare "default;tpr=128,rpb=1,residency=0,loads=0,stores=0,minb=0;tpr=256,rpb=1,residency=0,loads=0,stores=0,minb=0;tpr=64,rpb=2,residency=0,loads=0,stores=0,minb=0;tpr=512,rpb=1,residency=0,loads=0,stores=0,minb=2;default" > "$R/f32-call2.txt" 2>&1
echo "f32 rc=$? at $(( $(date +%s) - start )) s"
python3 - "$R" <<'PY'
import sys,glob,re,os
for f in sorted(glob.glob(sys.argv[1]+"/*-call2.txt")):
    print("==",os.path.basename(f))
    for line in open(f):
        m=re.search(r"x(\d\.\d+)\s.*\[(.*)\]\s*$",line)
        if not m:
            if "rror" in line or "fail" in line or "not valid" in line: print(line.strip()[:160])
            continue
        p=line.split()
        if m.group(2)=="default": continue
        print(p[0][:5],p[1],p[2],p[3],p[4][:22],p[5],m.group(1))
PY
