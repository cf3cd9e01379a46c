#!/usr/bin/env bash
# Device call 9 (session 32): torch.compile's per-head layout in our template with its register
# budget: 16 lanes x 8 rows a thread, 64-thread blocks (rpt=8,tpr=16,rpb=4), addresses from a
# compile-time row stride and the output converted anew (build-tmp/tpl_dense_rc: 56 registers; the
# embedded template takes 109 for it), against our default, under ncu (12 launches each, no PDL
# attribute) and by events (template_ab, one process each).  Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s32call9
build_cli || exit 1
med() { grep "gpu__time_duration.sum" "$1" | awk '{print $NF}' | sort -n | awk '{a[NR]=$1} END {printf "n=%d median %.3f min %.3f max %.3f\n", NR, a[int((NR+1)/2)], a[1], a[NR]}'; }
X8="rpt=8,tpr=16,rpb=4,residency=0"
for T in 65536 221184; do
  for v in base:default dense_rc:x8 base:x8; do
    t=${v%%:*}; c=${v##*:}; d=""; [ $t = base ] || d=build-tmp/tpl_$t
    cfg=(); [ $c = x8 ] && cfg=(--config $X8)
    env ${d:+NORMJIT_TEMPLATE_DIR=$d} NORMJIT_CACHE_DIR=$(mktemp -d) timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread -k regex:normjit_entry -s 4 -c 12 \
      $nj bench --op rmsnorm --tokens $T --hidden 128 --reps 14 --no-pdl "${cfg[@]}" > "$R/ncu-$t-$c-$T.raw" 2>&1
    echo "$t $c $T: $(med "$R/ncu-$t-$c-$T.raw") regs $(grep registers_per_thread "$R/ncu-$t-$c-$T.raw" | head -1 | awk '{print $NF}')"
  done
done
echo "ncu at $(elapsed) s"
timeout 80 python3 scripts/template_ab.py --normjit $nj base rc=build-tmp/tpl_dense_rc base2= rc2=build-tmp/tpl_dense_rc \
  -- --op rmsnorm --tokens 65536,221184 --hidden 128 --reps 40 --config $X8 > "$R/ab-x8.txt" 2>&1
echo "ab rc=$? at $(elapsed) s"; tail -3 "$R/ab-x8.txt"
timeout 40 python3 scripts/template_ab.py --normjit $nj base base2= -- --op rmsnorm --tokens 65536,221184 --hidden 128 --reps 40 > "$R/ab-default.txt" 2>&1
echo "ab-default rc=$? at $(elapsed) s"; tail -2 "$R/ab-default.txt"
