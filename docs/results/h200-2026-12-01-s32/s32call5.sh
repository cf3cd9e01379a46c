#!/usr/bin/env bash
# Device call 5 (session 32): torch.compile's own per-head layout at head_dim 128 (16 lanes of one
# vector, 8 rows a thread, 64-thread blocks of 32 rows) against the default, with and without
# reconvert, with and without PDL; ncu without PDL.  Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s32call5
build_cli || exit 1
show() { grep -E "x[01]\.[0-9]+" "$R/$1.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'; }
old2="rpt=2,tpr=8,rpb=16,residency=0,reconvert=0"; x8="rpt=8,tpr=16,rpb=4,residency=0"
C="$old2;$x8,reconvert=0;$x8,reconvert=1"
timeout 100 $nj bench --op rmsnorm --dtype bf16 --tokens 65536,221184 --hidden 128 --reps 40 --compare "$C" > "$R/x8-pdl.txt" 2>&1
show x8-pdl
timeout 100 $nj bench --op rmsnorm --dtype bf16 --tokens 65536,221184 --hidden 128 --reps 40 --no-pdl --compare "$C" > "$R/x8-nopdl.txt" 2>&1
show x8-nopdl
export NORMJIT_CACHE_DIR=$(mktemp -d)
M=gpu__time_duration.sum,launch__registers_per_thread,launch__waves_per_multiprocessor,smsp__inst_executed.sum
for T in 65536 221184; do
  for cfg in "$old2" "$x8,reconvert=0" "$x8,reconvert=1"; do
    echo "## $T $cfg"
    timeout 60 ncu --clock-control none --metrics $M -k regex:normjit_entry -s 4 -c 1 $nj bench --op rmsnorm --tokens $T --hidden 128 --reps 3 --no-pdl --config "$cfg" > "$R/ncu.raw" 2>&1
    grep -E "__" "$R/ncu.raw"; cat "$R/ncu.raw" >> "$R/ncu-x8.txt"
  done
done
echo "done at $(elapsed) s"
