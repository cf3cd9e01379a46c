#!/usr/bin/env bash
# Prepared in session 32 for the next device run, not run: the GPU tests of `reconvert` and `dense`
# (branch wip/dense-rows), then torch.compile's per-head layout with both against the defaults,
# interleaved in one process, at the rows of 16 and 32 vectors the 3-D table covers and around
# the rule thresholds (kFourRowsPerThreadRows 131072, kOneVectorLaneRows 262144).
# From the repo root: cp this to build-tmp/, then `bash build-tmp/next-call-dense.sh` through the
# device tool. Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s33call1
build_cli test_gpu || exit 1
for t in "forced configs: a held 16-bit row converted again for its output or not" \
         "forced configs: several rows a thread addressed from one base (dense rows)"; do
  timeout 200 build-gpu/tests/gpu/test_gpu "$t" > "$R/test.log" 2>&1
  echo "test rc=$? at $(elapsed) s: $t"; tail -2 "$R/test.log"; cat "$R/test.log" >> "$R/tests.log"
done
show() { grep -E "x[01]\.[0-9]+" "$R/$1.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'; }
X8="rpt=8,tpr=16,rpb=4,residency=0,reconvert=1"
X4="rpt=4,tpr=8,rpb=8,residency=0,reconvert=1"
call_deadline=560
bench_compare dense128 rmsnorm bf16,f16 32768,65536,131072,221184,262144,524288 128 "default;$X8,dense=1;$X8,dense=0;$X4,dense=1"
show dense128
bench_compare dense256 rmsnorm bf16 32768,131072,262144 256 "default;rpt=4,tpr=16,rpb=4,residency=0,reconvert=1,dense=1;rpt=2,tpr=32,rpb=4,residency=0,reconvert=1,dense=1"
show dense256
bench_compare dense64 rmsnorm bf16 131072,524288 64 "default;rpt=8,tpr=8,rpb=8,residency=0,reconvert=1,dense=1"
show dense64
