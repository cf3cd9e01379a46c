#!/usr/bin/env bash
# Session 62's ready call (for the next session with an H200; copy to build-tmp/ with
# no-pre-weight.patch, rename to the session's call; carry build-tmp .devdeps .whl cache/prewarmed).
# 1. Target 2's one miss on the H200: the template's staged pre-weight (kPreWeight, 8 items; session
#    62's H100 A/B: 0.6-1.3 % faster) against the template without it (no-pre-weight.patch), one
#    process per template set, two rounds in rotated order; then `bench` of the default at
#    1024 x 262144 for its % of copy, and the f16/fp32 kernels the rule changes.
# 2. The synccheck fault of session 62 narrowed: forced 16-CTA clusters at 1, 5 and 200 rows (and the
#    3-head per-head form), with 8-CTA clusters as the control, under synccheck and memcheck,
#    each through `bench` (which validates against the float64 reference before timing).
source "$(dirname "$0")/../scripts/device_call.sh" s63call1
build_cli > /dev/null || exit 1
root=$PWD
nopre=$(mktemp -d)
cp -r kernel_templates "$nopre/" && (cd "$nopre" && patch -p1 -s < "$root/build-tmp/no-pre-weight.patch") || exit 1
args=(-- --op fused_add_rmsnorm --dtype bf16 --tokens 1024,4096 --hidden 163840,196608,229376,262144 --reps 40)
args16=(-- --op fused_add_rmsnorm --dtype f16,f32 --tokens 1024 --hidden 131072,196608,229376,262144 --reps 40)
timeout 120 python3 scripts/template_ab.py --normjit "$nj" base "nopre=$nopre/kernel_templates" "${args[@]}" \
  > "$R/pre-r1.txt" 2>&1; echo "r1 rc=$? at $(elapsed) s"
timeout 120 python3 scripts/template_ab.py --normjit "$nj" "nopre=$nopre/kernel_templates" base "${args[@]}" \
  > "$R/pre-r2.txt" 2>&1; echo "r2 rc=$? at $(elapsed) s"
timeout 100 python3 scripts/template_ab.py --normjit "$nj" base "nopre=$nopre/kernel_templates" "${args16[@]}" \
  > "$R/pre16-r1.txt" 2>&1; echo "f16/f32 rc=$? at $(elapsed) s"
timeout 60 "$nj" bench --op fused_add_rmsnorm,rmsnorm --tokens 1024 --hidden 262144 --reps 40 > "$R/bench-262144.txt" 2>&1
cat "$R"/pre-r1.txt "$R"/pre-r2.txt "$R"/pre16-r1.txt "$R"/bench-262144.txt
for tool in synccheck memcheck; do
  for cfg in "--tokens 1 --hidden 2048 --config cluster=16" "--tokens 5 --hidden 2048 --config cluster=16" \
             "--tokens 5 --heads 3 --hidden 2048 --config cluster=16" "--tokens 200 --hidden 16384 --config cluster=16" \
             "--tokens 5 --hidden 2048 --config cluster=8"; do
    echo "== $tool: rmsnorm bf16 $cfg"
    timeout 60 "${CS:-compute-sanitizer}" --tool $tool "$nj" bench --op rmsnorm $cfg --reps 2 2>&1 | tail -6
  done
done > "$R/cluster16-sanitize.txt" 2>&1
cat "$R/cluster16-sanitize.txt"
echo "done at $(elapsed) s"
