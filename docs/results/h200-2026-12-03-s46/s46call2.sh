#!/usr/bin/env bash
# Session 46, call 2 (kernels of 915305d; two earlier tries were cut off when the machine was
# taken back): the fp32 fused add at 1024 rows of 98304-229376, the default against re-reading
# the stored sum on 8 x 512 (call 1: 139264 3.5 % faster re-read, 204800 5.6 % slower) and staged
# on 16 x 128 (68-112 KiB shares, 2-3 CTAs an SM); the wide
# rows at 1024 tokens beside the peers; the contiguous 3-D table, as far as the time goes.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s46call2
end=${CALL_END:-170}
build_cli normjit > /dev/null || exit 1
bench_run f32-wide --op fused_add_rmsnorm --dtype f32 --hidden 98304,114688,131072,139264,147456,163840,172032,180224,196608,204800,229376 --tokens 1024 --compare "default;cluster=8,tpr=512,residency=2;cluster=16,tpr=128,residency=3"
echo "== f32-wide"; grep -E "x[01]\.[0-9]+|not valid|FAILED" $R/f32-wide.txt | awk '{print $1,$3,$4,$5,$6,$10,$11}'
peers() { local name=$1 budget=$2; shift 2
  local left=$(( end - $(elapsed) )); [ $left -gt $budget ] && left=$budget
  [ $left -lt 30 ] && { echo "skip $name"; return; }
  REBUILD=0 timeout $left bash scripts/peers_bench.sh "$@" --csv "$R/$name.csv" > "$R/$name.txt" 2> "$R/$name-stderr.txt"
  echo "$name rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/$name.txt" | tail -12; }
peers wide 170 --ops rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 32768,65536,131072,262144 --reps 20 --autotune-min-tokens 1000000
peers 3d 90 --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
  --heads 4608x48x128,8192x32x128,8192x8x128,4096x32x64,2048x16x256,4096x24x64,8192x16x256,8192x32x64
echo "done at $(elapsed) s"
