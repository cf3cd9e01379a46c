#!/usr/bin/env bash
# Session 43, call 3 (lead 8): part-filled staged shares in even parts (kt_pf: up to 4 parts only
# where the items divide) against up to 4 uneven parts (the tree's templates), one process per
# template set, candidate layouts at widths between powers of two, 1024 rows, bf16. Kernels
# precompiled here (cache/l8pf, cache/l8new).
# Carry: build-tmp .devdeps .whl cache/l8pf cache/l8new
source "$(dirname "$0")/../scripts/device_call.sh" s43call3
build_cli || exit 1
call_deadline=300
RC=$(cat build-tmp/l8_rc3.txt); FC=$(cat build-tmp/l8_fc3.txt); FCS=${FC/cluster=8,tpr=512,residency=0,minb=2,loads=0;/}
one() { local name=$1 tdir=$2 cache=$3
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$tdir/kernel_templates; export NORMJIT_CACHE_DIR=$(mktemp -d); cp -r $cache/. $NORMJIT_CACHE_DIR/
    bench_run "$name-r" --op rmsnorm --dtype bf16 --hidden 40960,49152,57344,81920,122880,139264,163840,204800,245760 --tokens 1024 --compare "$RC"
    bench_run "$name-f" --op fused_add_rmsnorm --dtype bf16 --hidden 81920,98304,114688 --tokens 1024 --compare "$FC"
    bench_run "$name-g" --op fused_add_rmsnorm --dtype bf16 --hidden 139264,172032,237568 --tokens 1024 --compare "$FCS" ) ; }
one pf build-tmp/kt_pf cache/l8pf; one new "" cache/l8new
for s in r f g; do
  echo "== $s (pf / new)"
  paste <(grep -hE "x[01]\.[0-9]+|not valid" $R/pf-$s.txt | awk '{print $3,$4,$5,$6,$10}') <(grep -hE "x[01]\.[0-9]+|not valid" $R/new-$s.txt | awk '{print $6,$10}')
done
echo "done at $(elapsed) s"
