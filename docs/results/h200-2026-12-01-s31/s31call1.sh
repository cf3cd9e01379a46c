#!/usr/bin/env bash
# Device call 1 (session 31, 69315b9): staged wide rows (residency 3) three ways against the
# embedded templates, one process each (scripts/template_ab.py): per-thread cp.async (LDGSTS)
# instead of bulk copies in, bulk stores out of shared memory, both. Then the rmsnorm f16 7168
# A/B left from session 30 (s30call7).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s31call1
build_cli || exit 1
args="--op rmsnorm,fused_add_rmsnorm --tokens 1024,4096 --hidden 32768,65536,131072,262144 --reps 30"
timeout 200 python3 scripts/template_ab.py --normjit $nj base ldgsts=build-tmp/tpl_ldgsts bulkst=build-tmp/tpl_bulkst both=build-tmp/tpl_both -- $args > "$R/staged-ab1.txt" 2>&1
echo "ab1 rc=$? at $(elapsed) s"; cat "$R/staged-ab1.txt" | tail -20
timeout $(( 480 - $(elapsed) )) python3 scripts/template_ab.py --normjit $nj both=build-tmp/tpl_both bulkst=build-tmp/tpl_bulkst ldgsts=build-tmp/tpl_ldgsts base -- $args > "$R/staged-ab2.txt" 2>&1
echo "ab2 rc=$? at $(elapsed) s"; cat "$R/staged-ab2.txt" | tail -20
call_deadline=570
bench_compare pin-rms7168 rmsnorm f16,bf16 256,1024,4096,8192 7168 "default;pin_weight=0"
tail -12 "$R/pin-rms7168.txt"
