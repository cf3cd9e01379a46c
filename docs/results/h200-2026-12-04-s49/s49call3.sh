#!/usr/bin/env bash
# Session 49, call 3: the new defaults' late-weight 512-thread rows (5121-6143 vectors) take the
# output's evict-last hint from 96 MiB of output (choose_rms_norm's end); calls 1-2 timed them
# without it. Default / keep_out=0, two rounds, separate processes.
source "$(dirname "$0")/../scripts/device_call.sh" s49call3
build_cli > /dev/null || exit 1
call_deadline=300
for r in 1 2; do
  bench_run keep-r$r --op rmsnorm --dtype bf16,f16 --hidden 41984,45056,48128 --tokens 2048,4096,8192 --compare "default;keep_out=0"
  bench_run keepg-r$r --op gemma_rmsnorm --dtype bf16 --hidden 45056,49152 --tokens 1024,4096 --compare "default;keep_out=0"
done
for n in keep keepg; do rounds_side_by_side $n 2 > "$R/$n-side.txt"; done
for n in keep keepg; do sort -k1,1 -k2,2n -k3,3n "$R/$n-side.txt" | awk '{k=$1" "$2" "$3" "$4; a[k]=a[k]" "$5} END{for(k in a) print k, a[k]}' | sort -k1,1 -k2,2n -k3,3n; done
echo "done at $(elapsed) s"
