#!/usr/bin/env bash
# Device call 1 (session 19, at 28dbb92 + decode_anatomy --script): the GPU suite (first run of
# the forced-trigger GPU test); bench --latency by default, trigger=early and trigger=end; the
# anatomy's step script to find the event that slows a loaded kernel.
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s19call1.tgz r' EXIT
nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/decode_anatomy scripts/decode_anatomy.cu -lcuda || exit 1
nvcc -cubin -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o /tmp/late.cubin scripts/decode_anatomy_late.cu || exit 1
cub() { f=$(find cache/prewarmed -name "$1-sm_90a-*.cubin" | head -1); tail -c +65 "$f" > "/tmp/$1.cubin"; echo "/tmp/$1.cubin"; }
S="nj_rms=$(cub rmsnorm-bf16-h4096-v8-t128-r1):rms:128:4096:128 nj_fused=$(cub fused_add_rmsnorm-bf16-h2048-v8-t256-r1):fused:128:2048:256 min_rms=/tmp/late.cubin:rms:128:4096:128:rms4096_t128 min_fused=/tmp/late.cubin:fused:128:2048:256:fused2048_t256"
echo "$S" > "$R/specs.txt"
timeout 60 /tmp/decode_anatomy --script NLTTTFTUTLTMTTNT $S > "$R/script-a.txt" 2>&1; cat "$R/script-a.txt"
echo "anatomy at $(( $(date +%s) - start )) s"
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 300 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
grep -E "forced configs: the PDL trigger|trigger" "$R/ctest-gpu.log" | head -5
for t in early end; do
  timeout 60 build-gpu/normjit bench --latency --config trigger=$t > "$R/latency-$t.txt" 2>&1
done
timeout 60 build-gpu/normjit bench --latency > "$R/latency-default2.txt" 2>&1
python3 - "$R" <<'PY'
import re,sys,os
R=sys.argv[1]
def load(f):
    d={}
    for l in open(os.path.join(R,f)):
        m=re.match(r"\s+(\w+)\s+(\d+) x (\d+)\s+([\d.]+) us\s+static weight\s+([\d.]+) us\s+same-bytes copy\s+([\d.]+)",l)
        if m: d[(m[1],int(m[2]),int(m[3]))]=(float(m[4]),float(m[6]))
    return d
fs=["latency.txt","latency-default2.txt","latency-early.txt","latency-end.txt"]
ds=[load(f) for f in fs]
print("op rows hidden | default default2 early end | copy")
for k in ds[0]:
    print(k[0],k[1],k[2],"|"," ".join("%.3f"%d.get(k,(0,0))[0] for d in ds),"| %.3f"%ds[0][k][1])
PY
timeout 60 /tmp/decode_anatomy --flush --script NLTTFTUTLTMTNT $S > "$R/script-b.txt" 2>&1; cat "$R/script-b.txt"
echo "done at $(( $(date +%s) - start )) s"
