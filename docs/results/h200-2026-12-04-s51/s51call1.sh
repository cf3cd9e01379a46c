#!/usr/bin/env bash
# Session 51, call 1: the output hint (keep_out) on the rows of the last N MiB of output only
# (template variants build-tmp/tailN, made by build-tmp/mk_tail.py), against no hint and the hint
# on every row (base templates), at the grid's large shapes: rmsnorm 32768 x 4096 / 8192 (no hint
# by default: the full hint lost there), the fused add (hint on every row by default).
# One process per template set and shape group, two rounds in opposite orders.
source "$(dirname "$0")/../scripts/device_call.sh" s51call1
build_cli > /dev/null || exit 1
call_deadline=570
sets_r1="base tail32 tail64 tail128"
sets_r2="tail128 tail64 tail32 base"
for r in 1 2; do
  sets=$sets_r1; [ $r = 2 ] && sets=$sets_r2
  for s in $sets; do
    if [ $s = base ]; then unset NORMJIT_TEMPLATE_DIR; else export NORMJIT_TEMPLATE_DIR=$PWD/build-tmp/$s; fi
    bench_run rms-$s-r$r --op rmsnorm --dtype bf16 --tokens 32768 --hidden 4096,8192 --compare "default;keep_out=1,minb=4;minb=4"
    bench_run fa-$s-r$r --op fused_add_rmsnorm --dtype bf16 --tokens 8192,32768 --hidden 4096,8192 --compare "default;keep_out=0"
    bench_run fa16k-$s-r$r --op fused_add_rmsnorm --dtype bf16 --tokens 8192 --hidden 16384 --compare "default;keep_out=0"
  done
done
unset NORMJIT_TEMPLATE_DIR
for s in base tail32 tail64 tail128; do
  for g in rms fa fa16k; do
    for r in 1 2; do [ -f "$R/$g-$s-r$r.txt" ] && cp "$R/$g-$s-r$r.txt" "$R/$g$s-r$r.txt"; done
    rounds_side_by_side $g$s 2 > "$R/side-$g-$s.txt"
  done
done
for s in base tail32 tail64 tail128; do echo "### $s"; cat "$R"/side-*-$s.txt | grep -v "^==" ; done | head -c 9000
grep -h "copy" "$R/rms-base-r1.txt" | head -1
echo "done at $(elapsed) s"
