#!/usr/bin/env bash
# Device call 6 (session 24): rows whose vector count is not a power of two (hidden 1536-7168,
# 12288), where the default rounds threads up and leaves items part-filled: fewer threads holding
# the row, against the default, interleaved. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s24call6.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
T=256,512,2048,8192,32768
{
$nj bench --op rmsnorm --tokens $T --hidden 1536,2560,3072,3584 --reps 30 --compare "default;tpr=32,residency=0;tpr=64,residency=0;tpr=128,residency=0;default" 2>&1 | tail -n +2
$nj bench --op rmsnorm --tokens $T --hidden 5120,5376,6144,7168 --reps 30 --compare "default;tpr=128,residency=0;tpr=128,residency=0,loads=0;default" 2>&1 | tail -n +3
$nj bench --op fused_add_rmsnorm --tokens $T --hidden 1536,2560,3072,3584 --reps 30 --compare "default;tpr=64,residency=0;tpr=128,residency=0;default" 2>&1 | tail -n +3
$nj bench --op fused_add_rmsnorm --tokens 256,512 --hidden 5120,5376,6144,7168 --reps 30 --compare "default;tpr=128,residency=0;default" 2>&1 | tail -n +3
$nj bench --op rmsnorm,fused_add_rmsnorm --tokens $T --hidden 12288 --reps 30 --compare "default;tpr=256,residency=0;tpr=512,residency=0;default" 2>&1 | tail -n +3
} > "$R/npot.txt"
echo "done at $(( $(date +%s) - start )) s"
python3 - "$R/npot.txt" <<'PY'
import sys, re, collections
for f in sys.argv[1:]:
    rows = collections.OrderedDict()
    for line in open(f):
        m = re.match(r'(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\S+)\s+([\d.]+).*\[(.*)\]', line)
        if not m: continue
        key = (m[1], m[2], m[3], m[4]); rows.setdefault(key, []).append((m[7], m[5], float(m[6])))
    for k, v in rows.items():
        d = v[0][2]
        print(" ".join(k), v[0][1], "  ".join(f"{c.replace(',residency=0','/r0')}={t:.2f}({t/d:.3f})" for c, _, t in v))
PY
