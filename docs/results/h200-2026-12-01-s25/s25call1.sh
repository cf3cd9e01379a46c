#!/usr/bin/env bash
# Device call 1 (session 25): open lead 6 -- the fused add's rows of 257-511 vectors (2560-3584)
# re-read / on 128 threads / without per-item stores against the default at 512-32768 rows (bf16,
# f16, gemma); rows of 1025-2047 vectors (10240-14336): the fused add on 256-512 threads holding
# the row, rmsnorm re-read. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s25call1.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
RR="tpr=256,rpb=1,residency=2,loads=3,stores=0,pin_weight=0"
NARROW="default;$RR,minb=8;$RR,minb=0;tpr=128,rpb=1,residency=0,loads=0,stores=0;tpr=256,stores=0;default"
timeout 200 $nj bench --op fused_add_rmsnorm --tokens 512,1024,2048,4096,8192,16384,32768 --hidden 2560,3072,3584 --reps 20 \
  --compare "$NARROW" > "$R/narrow-fused-call1.txt" 2>&1
echo "narrow rc=$? at $(( $(date +%s) - start )) s"
timeout 90 $nj bench --op fused_add_rmsnorm,gemma_fused_add_rmsnorm --dtype bf16,f16 --tokens 2048,8192,32768 --hidden 2560,3584 --reps 20 \
  --compare "$NARROW" > "$R/narrow-dtypes-call1.txt" 2>&1
echo "dtypes rc=$? at $(( $(date +%s) - start )) s"
timeout 120 $nj bench --op fused_add_rmsnorm --tokens 256,512,2048,8192,32768 --hidden 10240,12288,14336 --reps 20 \
  --compare "default;tpr=512,residency=0;tpr=512,residency=0,minb=2;tpr=256,residency=0;default" > "$R/mid-fused-call1.txt" 2>&1
echo "mid fused rc=$? at $(( $(date +%s) - start )) s"
timeout 100 $nj bench --op rmsnorm --tokens 2048,8192,32768 --hidden 10240,12288,14336 --reps 20 \
  --compare "default;tpr=512,residency=2,loads=3;tpr=256,residency=2,loads=3;tpr=1024,residency=2,loads=3;tpr=256,residency=0;default" > "$R/mid-rms-call1.txt" 2>&1
echo "mid rms rc=$? at $(( $(date +%s) - start )) s"
timeout 80 $nj bench --op rmsnorm,fused_add_rmsnorm --dtype f32 --tokens 8192,32768 --hidden 2560,5120 --reps 20 \
  --compare "default;tpr=128,rpb=1,residency=0,loads=0,stores=0,minb=0;tpr=256,rpb=1,residency=2,loads=3,stores=0;tpr=64,rpb=2,residency=0,stores=0;default" > "$R/npot-f32-call1.txt" 2>&1
echo "f32 rc=$? at $(( $(date +%s) - start )) s"
for f in "$R"/*-call1.txt; do echo "== $(basename $f)"; grep -v "^op\|^device" "$f" | awk '{printf "%s %s %s %s %s %s %s\n",$1,$2,$3,$4,$5,$6,$(NF)}' | grep -v "\[default\]" | awk '$6!="" ' | head -0; done
python3 - "$R" <<'PY'
import sys,glob,re,os
for f in sorted(glob.glob(sys.argv[1]+"/*-call1.txt")):
    print("==",os.path.basename(f))
    for line in open(f):
        m=re.search(r"x(\d\.\d+)\s.*\[(.*)\]\s*$",line)
        if not m: 
            if "rror" in line or "fail" in line: print(line.strip()[:150])
            continue
        p=line.split()
        if m.group(2)=="default": continue
        r=float(m.group(1))
        if r<0.985: print(p[0][:5],p[1],p[2],p[3],p[5],m.group(1),m.group(2)[:40])
PY
