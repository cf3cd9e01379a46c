#!/usr/bin/env bash
# Session 40, call 3: the wide rows at 1024 tokens beside the peers (the last table of the run),
# then lead 1 of docs/benchmarks.md: output stores evict-last on a fraction of the lines
# (createpolicy.fractional with 0.5 and 0.25 instead of 1.0; template sets build-tmp/kt_f50,
# kt_f25, only store_chunk's policy changed) against the embedded templates, rmsnorm and the
# fused add at 32768 rows, each set comparing the default, keep_out=0 and keep_out=1 (under a
# variant keep_out=1 is that fraction). One process per set, two rounds in rotated order.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s40call3
REBUILD=1 timeout 150 bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 1024 \
  --hidden 32768,65536,131072,262144 --reps 20 --autotune-min-tokens 1000000 --csv "$R/wide.csv" > "$R/wide.txt" 2> "$R/wide-stderr.txt"
echo "wide rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/wide.txt" | tail -12
[ -x "$nj" ] || build_cli || exit 1
call_deadline=585
C="default;keep_out=0;keep_out=1"
one() { local name=$1 tdir=$2; shift 2
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$tdir/kernel_templates; export NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run "$name" --dtype bf16 --tokens 32768 --compare "$C" "$@" ) ; }
sets=(base f50 f25)
for round in 1 2; do
  for i in 0 1 2; do
    v=${sets[$(( (i + round - 1) % 3 ))]}; d=""; [ $v = base ] || d=build-tmp/kt_$v
    one rk-$v-r$round "$d" --op rmsnorm --hidden 2048,4096,8192,16384
    one fk-$v-r$round "$d" --op fused_add_rmsnorm --hidden 4096,8192
  done
done
for v in "${sets[@]}"; do rounds_side_by_side rk-$v 2; rounds_side_by_side fk-$v 2; done
echo "done at $(elapsed) s"
