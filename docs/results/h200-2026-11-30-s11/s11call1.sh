#!/usr/bin/env bash
# Device call 1 (session 11), experiments on patched copies (never committed): does the cluster
# cost the staged wide rows their last 10 %? Same shapes, three builds:
#   real       the kernels as committed
#   nosync     cluster launch kept, the partial sums not exchanged (no cluster barrier)
#   nocluster  no cluster launch attribute either: the CTAs of a row are independent blocks
# Outputs of the last two are wrong (each CTA normalizes by its own share's sum), so the bench's
# check prints instead of throwing. Then ncu's L2 breakdown for a register and a staged kernel.
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s11call1.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
nj=build-gpu/normjit
B() { timeout "$1" stdbuf -oL $nj bench "${@:2}" 2>&1 | grep -E "^(rmsnorm|fused|best|device)|rror"; }
run_set() {
  B 100 --op rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 65536,131072,262144 --reps 20
  B 60 --op rmsnorm,fused_add_rmsnorm --tokens 4096 --hidden 65536 --reps 20
}
python3 - <<'PY'
p='tools/bench.cpp'; s=open(p).read()
old='throw std::runtime_error(fmt::format("bench: {} {}x{} output wrong'
assert old in s
s=s.replace(old,'std::fprintf(stderr, "%s\\n", fmt::format("bench: {} {}x{} output wrong')
s=s.replace('op_name(sh_.op), sh_.T, H, row, j));','op_name(sh_.op), sh_.T, H, row, j).c_str()); return;',1)
open(p,'w').write(s)
PY
gpu_build "" normjit_cli || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
{ echo "== real"; run_set; } 2>&1 | tee "$R/real.txt"
M="breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed"
for spec in "rmsnorm 8192 16384" "rmsnorm 4096 65536" "fused_add_rmsnorm 8192 8192"; do set -- $spec
  echo "== ncu $1 $2 x $3"
  timeout 90 ncu --clock-control none -k regex:normjit_entry -s 4 -c 1 --metrics "$M" $nj bench --op $1 --tokens $2 --hidden $3 --reps 3 2>&1 | grep -E "^\s+[a-z]+__|rror"
done 2>&1 | tee "$R/l2-breakdown.txt"
python3 - <<'PY'
p='kernel_templates/reduce.cuh'; s=open(p).read()
old='  if constexpr (kCluster == 1) {\n    return v;'
assert old in s
s=s.replace(old,'  if constexpr (true) {\n    return v;')
open(p,'w').write(s)
PY
gpu_build "n-" normjit_cli || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
{ echo "== nosync (wrong outputs)"; run_set; } 2>&1 | grep -v wrong | tee "$R/nosync.txt"
sed -i 's/  if (c.cluster > 1) {/  if (false \&\& c.cluster > 1) {/' src/launch.cpp
grep -q "false && c.cluster" src/launch.cpp || { echo "launch patch failed"; exit 1; }
gpu_build "p-" normjit_cli || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
{ echo "== nocluster (wrong outputs)"; run_set; } 2>&1 | grep -v wrong | tee "$R/nocluster.txt"
