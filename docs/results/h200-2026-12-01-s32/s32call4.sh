#!/usr/bin/env bash
# Device call 4 (session 32): trial rule (not committed): rmsnorm rows of 16 vectors (head_dim 128)
# from 32768 to 262143 rows on torch.compile's per-head plan (8 lanes x 4 rows a thread, 64-thread
# blocks) with reconvert, 64 registers, 16 CTAs an SM. Its GPU test; compares with and without PDL
# against the old kernels; ncu without PDL; the 3-D table.  Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s32call4
source scripts/gpu_build.sh
gpu_build "" normjit_cli test_gpu > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(elapsed) s"
timeout 150 build-gpu/tests/gpu/test_gpu "forced configs: a held 16-bit row converted again for its output or not" > "$R/test-reconvert.log" 2>&1
echo "test rc=$? at $(elapsed) s"; tail -3 "$R/test-reconvert.log"
timeout 150 build-gpu/tests/gpu/test_gpu "[3d]" > "$R/test-3d.log" 2>&1
echo "test 3d rc=$? at $(elapsed) s"; tail -3 "$R/test-3d.log"
show() { grep -E "x[01]\.[0-9]+" "$R/$1.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'; }
old2="rpt=2,tpr=8,rpb=16,residency=0,reconvert=0"; old4="rpt=4,tpr=8,rpb=8,residency=0,reconvert=0"
call_deadline=400
bench_compare pdl128 rmsnorm bf16,f16 65536,131072,221184 128 "default;$old2;$old4"
show pdl128
left=$(( 420 - $(elapsed) ))
timeout $left $nj bench --op rmsnorm --dtype bf16 --tokens 65536,131072,221184 --hidden 128 --reps 40 --no-pdl --compare "default;$old2;$old4" > "$R/nopdl128.txt" 2>&1
echo "nopdl rc=$? at $(elapsed) s"; show nopdl128
export NORMJIT_CACHE_DIR=$(mktemp -d)
M=gpu__time_duration.sum,launch__registers_per_thread,launch__waves_per_multiprocessor,smsp__inst_executed.sum
for T in 65536 221184; do
  timeout 60 ncu --clock-control none --metrics $M -k regex:normjit_entry -s 4 -c 1 $nj bench --op rmsnorm --tokens $T --hidden 128 --reps 3 --no-pdl > "$R/ncu-new-$T.raw" 2>&1
  grep -E "normjit_entry|__" "$R/ncu-new-$T.raw"
done
echo "ncu at $(elapsed) s"
left=$(( 585 - $(elapsed) ))
if [ "$left" -gt 60 ]; then
  REBUILD=1 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
  echo "3d rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
fi
echo "done at $(elapsed) s"
