#!/usr/bin/env bash
# Device call 5 (session 24): rows of 513-1023 vectors (hidden 5120-7168) on fewer threads, the
# sweep's winners (sweep-*-call4.txt) against the default over row counts, interleaved.
# Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s24call5.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
C="default;tpr=128,residency=0;tpr=256,residency=0;tpr=256,residency=1,stores=1;tpr=64,rpb=2,residency=0;default"
{
$nj bench --op fused_add_rmsnorm --tokens 512,1024,2048,4096,8192,32768 --hidden 5120,5376,6144,7168 --reps 30 --compare "$C" 2>&1 | tail -n +2
$nj bench --op fused_add_rmsnorm --dtype f16 --tokens 2048,32768 --hidden 5120,7168 --reps 30 --compare "$C" 2>&1 | tail -n +3
$nj bench --op gemma_fused_add_rmsnorm --tokens 2048,32768 --hidden 5376 --reps 30 --compare "$C" 2>&1 | tail -n +3
} > "$R/narrow-fused.txt"
echo "fused at $(( $(date +%s) - start )) s"
$nj bench --op rmsnorm --tokens 2048,8192,32768 --hidden 5120,7168 --reps 30 \
  --compare "default;tpr=128,residency=0;tpr=256,residency=0;default" > "$R/narrow-rms.txt" 2>&1
echo "rms at $(( $(date +%s) - start )) s"
python3 - "$R/narrow-fused.txt" "$R/narrow-rms.txt" <<'PY'
import sys, re, collections
for f in sys.argv[1:]:
    rows = collections.OrderedDict()
    for line in open(f):
        m = re.match(r'(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\S+)\s+([\d.]+).*\[(.*)\]', line)
        if not m: continue
        key = (m[1], m[2], m[3], m[4]); rows.setdefault(key, []).append((m[7], float(m[6])))
    for k, v in rows.items():
        print(" ".join(k), "  ".join(f"{c}={t:.2f}" for c, t in v))
PY
