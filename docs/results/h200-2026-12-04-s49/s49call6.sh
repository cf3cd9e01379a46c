#!/usr/bin/env bash
# Session 49, call 6: next to the new rules. (1) 16-bit rows of 6144-7680 vectors (49152-61440)
# on 2-CTA clusters of 512 threads, the weight late, reconverted, floor 2 (64 registers; 8 bytes
# of stack at 57344/61440 bf16, 61440 f16) against the default (4 x 256 own copies, floor 6).
# (2) fp32 rows of 4224-5120 4-vectors (16896-20480) held on 8 x 128 (floor 8, every item pinned)
# and of 5248-6016 (20992-24064) by one late-weight 512-thread CTA (floor 2), against the default.
# Two rounds, separate processes. Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s49call6
build_cli > /dev/null || exit 1
call_deadline=330
for r in 1 2; do
  bench_run c2lw-r$r --op rmsnorm --dtype bf16,f16 --hidden 49152,53248,57344,61440 --tokens 1024,4096 \
    --compare "default;cluster=2,tpr=512,residency=1,reconvert=1,minb=2"
  bench_run f32held-r$r --op rmsnorm --dtype f32 --hidden 16896,18432,20480 --tokens 1024,4096 \
    --compare "default;cluster=8,tpr=128,residency=0,minb=8,pin_weight=1"
  bench_run f32lw-r$r --op rmsnorm --dtype f32 --hidden 20992,22528,24064 --tokens 1024,4096 \
    --compare "default;cluster=1,tpr=512,residency=1,minb=2"
done
for n in c2lw f32held f32lw; do rounds_side_by_side $n 2 > "$R/$n-side.txt"; done
for n in c2lw f32held f32lw; do echo "== $n"; grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$n-r1.txt" "$R/$n-r2.txt" | awk '{print $2,$3,$4,$5,$6,$10}' | sort -k1,1 -k2,2n -k3,3n -k4 | awk '{k=$1" "$2" "$3" "$4; if(k!=p){if(p!="")print l; l=k; p=k} l=l" "$5"("$6")"} END{print l}'; done
echo "done at $(elapsed) s"
