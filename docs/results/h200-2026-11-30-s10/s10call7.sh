#!/usr/bin/env bash
# Device call 7 (session 10), an experiment on a patched copy (never committed): the staged
# copies split into 4 KiB pieces instead of one 16 KiB copy per part (same barriers, same bytes).
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s10call7.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
nj=build-gpu/normjit
B() { timeout "$1" stdbuf -oL $nj bench "${@:2}" 2>&1 | grep -E "^(rmsnorm|fused|best|device)|rror"; }
run_set() {
  B 60 --op rmsnorm,fused_add_rmsnorm --tokens 1024,4096 --hidden 65536,262144 --reps 20
}
M=gpu__time_duration.sum,lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
prof() { timeout 60 ncu --clock-control none -k regex:normjit_entry -s 4 -c 1 --metrics $M $nj bench --op rmsnorm --tokens 1024 --hidden 65536 --reps 3 2>&1 | grep -E "^\s+(gpu|lts|dram)__"; }
gpu_build "" normjit_cli || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
{ echo "== one copy per part"; run_set; prof; } 2>&1 | tee "$R/pieces-real.txt"
python3 - <<'PY'
p='kernel_templates/rms_norm.cuh'; s=open(p).read()
for t in ('x', 'r'):
    old = f'''bulk_copy_to_shared<Cfg::kLoads == 1>({t}_stage + s * kStageElems, {t}_row + first + s * kStageElems, kBytes,'''
    assert old in s, t
    new = f'''for (u32 off = 0; off < kBytes; off += 4096u) bulk_copy_to_shared<Cfg::kLoads == 1>(reinterpret_cast<char*>({t}_stage + s * kStageElems) + off, reinterpret_cast<const char*>({t}_row + first + s * kStageElems) + off, kBytes - off < 4096u ? kBytes - off : 4096u,'''
    s = s.replace(old, new)
open(p,'w').write(s)
PY
grep -c "off += 4096u" kernel_templates/rms_norm.cuh
gpu_build "p-" normjit_cli || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
{ echo "== 4 KiB pieces"; run_set; prof; } 2>&1 | tee "$R/pieces-4k.txt"
