#!/usr/bin/env bash
# Session 43, call 2 (lead 8): candidate layouts at widths between powers of two, 1024 rows, bf16,
# interleaved against the default, kernels precompiled here (cache/l8); staged shares may now end
# in a part-filled item. Then the GPU test of forced staged configs (part-filled shares added).
# Carry: build-tmp .devdeps .whl cache/prewarmed cache/l8
source "$(dirname "$0")/../scripts/device_call.sh" s43call2
build_cli test_gpu || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d); cp -r cache/l8/. $NORMJIT_CACHE_DIR/
call_deadline=470
bench_run l8r --op rmsnorm --dtype bf16 --hidden 40960,49152,57344,81920,98304,122880,139264,163840,172032,204800,237568,245760 --tokens 1024 --compare "$(cat build-tmp/l8_rc.txt)"
bench_run l8f --op fused_add_rmsnorm --dtype bf16 --hidden 81920,98304,114688,139264,163840,172032,204800,237568 --tokens 1024 --compare "$(cat build-tmp/l8_fc.txt)"
for f in l8r l8f; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" $R/$f.txt | awk '{print $3,$4,$5,$6,$10,$11}'; done
timeout 100 build-gpu/tests/gpu/test_gpu "forced configs: rows staged in shared memory (bulk and per-thread copies)" > $R/staged-test.txt 2>&1; echo "staged test rc=$? at $(elapsed) s"; tail -4 $R/staged-test.txt
echo "done at $(elapsed) s"
