#!/usr/bin/env bash
# Device call 8 (session 32): per-head rows of 128/256, kernel time alone (ncu, caches flushed
# before each launch, no PDL attribute, 12 launches each, median): torch.compile's kernel against
# ours with the embedded templates, a dense-rows variant (row stride = hidden at compile time,
# 32-bit rows; build-tmp/tpl_dense) and session 21's row-by-row variant (build-tmp/tpl_seq); then
# the same three by events (scripts/template_ab.py, one process each, two rounds).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s32call8
build_cli || exit 1
med() { grep "gpu__time_duration.sum" "$1" | awk '{print $NF}' | sort -n | awk '{a[NR]=$1} END {printf "n=%d median %.3f min %.3f max %.3f\n", NR, a[int((NR+1)/2)], a[1], a[NR]}'; }
M=gpu__time_duration.sum
for s in 65536:128 221184:128 32768:256; do
  T=${s%%:*}; H=${s##*:}
  timeout 90 ncu --clock-control none --metrics $M --profile-from-start off -k regex:triton python3 build-tmp/ncu_compile_n.py $H $T 12 > "$R/ncu-compile-$T-$H.raw" 2>&1
  echo "compile $T x $H: $(med "$R/ncu-compile-$T-$H.raw")"
  for v in base dense seq; do
    d=""; [ $v = base ] || d=build-tmp/tpl_$v
    env ${d:+NORMJIT_TEMPLATE_DIR=$d} NORMJIT_CACHE_DIR=$(mktemp -d) timeout 90 ncu --clock-control none --metrics $M -k regex:normjit_entry -s 4 -c 12 \
      $nj bench --op rmsnorm --tokens $T --hidden $H --reps 14 --no-pdl > "$R/ncu-$v-$T-$H.raw" 2>&1
    echo "$v $T x $H: $(med "$R/ncu-$v-$T-$H.raw")"
  done
done
echo "ncu at $(elapsed) s"
timeout 200 python3 scripts/template_ab.py --normjit $nj base dense=build-tmp/tpl_dense seq=build-tmp/tpl_seq base2= dense2=build-tmp/tpl_dense seq2=build-tmp/tpl_seq \
  -- --op rmsnorm --tokens 65536,221184 --hidden 128 --reps 40 > "$R/ab.txt" 2>&1
echo "ab rc=$? at $(elapsed) s"; cat "$R/ab.txt" | tail -12
