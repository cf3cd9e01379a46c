#!/usr/bin/env bash
# Session 57, call 5 (not run: no device machine was lent after call 3; copy to build-tmp/ and
# rename for a later session). pin-weight-halves.patch (next to this script; copy it to build-tmp/
# too) pins every 16-byte load of an item's weight, not only the first: an fp32 weight beside
# 16-bit rows is two loads a vector, and the held kernels that pin the weight (KernelConfig::
# pin_weight 1, rows of 2048-9216 on 128-256 threads from 256 rows) issued 1-6 of its second
# halves after the row had arrived (scripts/late_loads.py over sm_90a SASS; none with the patch but
# the f16 fused add's 5120, 7-8; registers 42 -> 45 at 2048, 72 -> 77 at bf16 4096, 64 -> 76 at f16
# 4096, 96 -> 95 at 5120). Only kernels with an fp32 weight beside 16-bit rows change (SASS of 151
# defaults compared; a weight of the rows' type keeps its cubin). One process per template set
# (scripts/template_ab.py), base / patched, two rounds in alternating order. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s57call5
build_cli > /dev/null || exit 1
root=$PWD variant=$(mktemp -d)
cp -r kernel_templates "$variant/" && (cd "$variant" && patch -p1 -s < "$root/build-tmp/pin-weight-halves.patch") || exit 1
args=(-- --op rmsnorm,gemma_rmsnorm,fused_add_rmsnorm --dtype bf16,f16 --weight-dtype f32 --tokens 256,1024,8192
      --hidden 2048,4096,5120,6144,7168,9216 --reps 60)
timeout 240 python3 scripts/template_ab.py --normjit "$nj" base "pinned=$variant/kernel_templates" "${args[@]}" \
  > "$R/pinhalves-r1.txt" 2>&1; echo "r1 rc=$? at $(elapsed) s"
timeout 240 python3 scripts/template_ab.py --normjit "$nj" "pinned=$variant/kernel_templates" base "${args[@]}" \
  > "$R/pinhalves-r2.txt" 2>&1; echo "r2 rc=$? at $(elapsed) s"
cat "$R/pinhalves-r1.txt" "$R/pinhalves-r2.txt"
echo "done at $(elapsed) s"
