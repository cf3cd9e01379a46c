#!/usr/bin/env bash
# Device call 4 (session 19, at the early trigger for few rows + the fused add's multiply +
# bench --latency --fill): the GPU suite, bench --latency filled by a kernel and with the trigger
# forced back to auto, then the side-by-side table and its targets, the 3-D and gemma tables as
# time allows. Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s19call4.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 300 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; exit 1; }
timeout 60 build-gpu/normjit bench --latency --fill kernel > "$R/latency-kernelfill.txt" 2>&1
timeout 60 build-gpu/normjit bench --latency --config trigger=auto > "$R/latency-auto.txt" 2>&1
python3 - "$R" <<'PY'
import re,sys,os
R=sys.argv[1]
def load(f):
    d={}
    for l in open(os.path.join(R,f)):
        m=re.match(r"\s+(\w+)\s+(\d+) x (\d+)\s+([\d.]+) us\s+static weight\s+([\d.]+) us\s+same-bytes copy\s+([\d.]+)",l)
        if m: d[(m[1],int(m[2]),int(m[3]))]=(float(m[4]),float(m[6]))
    return d
fs=["latency.txt","latency-auto.txt","latency-kernelfill.txt"]
ds=[load(f) for f in fs]
print("op rows hidden | default trigger=auto kernel-fill | copy copy(kernel-fill)")
for k in ds[0]:
    print(k[0],k[1],k[2],"|"," ".join("%.3f"%d.get(k,(0,0))[0] for d in ds),"| %.3f %.3f"%(ds[0][k][1],ds[2].get(k,(0,0))[1]))
PY
grep "overhead" "$R/latency.txt"
left=$(( 540 - ($(date +%s) - start) ))
echo "peers with ${left} s left"
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"
python3 scripts/peers/targets.py "$R/peers-table.csv" | head -30
left=$(( 540 - ($(date +%s) - start) ))
if [ "$left" -gt 60 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
  echo "3d rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
fi
left=$(( 540 - ($(date +%s) - start) ))
if [ "$left" -gt 60 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops gemma_rmsnorm,gemma_fused_add_rmsnorm --tokens 1,128,2048,32768 --hidden 4096,8192 --autotune-min-tokens 100000000 --reps 30 --csv "$R/gemma.csv" > "$R/gemma.txt" 2> "$R/gemma-stderr.txt"
  echo "gemma rc=$? at $(( $(date +%s) - start )) s"; grep "geomean" "$R/gemma.txt"
fi
echo "done at $(( $(date +%s) - start )) s"
