#!/usr/bin/env bash
# Session 64, call 1 (carry build-tmp .devdeps .whl). On whatever GPU comes (an H200 asked for):
# 1. The staged pre-weight template (kPreWeight, 8 items) against the template without it
#    (build-tmp/no-pre-weight.patch), bf16 fused add at 1024 rows x 163840-262144 and 4096 x
#    262144, one process per template set, two rounds in rotated order (session 62/63 ran this on
#    H100s only: 0.1-1.3 % faster there).
# 2. The wide-row table beside the peers (scripts/peers_tables.sh wide: 1024 tokens x
#    32768-262144, rmsnorm and fused add), target 2's figure with the pre-weight template.
# 3. Session 62/63's synccheck fault at forced 16-CTA clusters narrowed: the row counts between
#    5 (passes) and 15 (faults), 8-CTA clusters at 15 and 200 rows as the control for clusters run
#    in waves, and the whole sanitizer report (session 63 cut it to 6 lines).
source "$(dirname "$0")/../scripts/device_call.sh" s64call1
build_cli > /dev/null || exit 1
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
root=$PWD
nopre=$(mktemp -d)
cp -r kernel_templates "$nopre/" && (cd "$nopre" && patch -p1 -s < "$root/build-tmp/no-pre-weight.patch") || exit 1
args=(-- --op fused_add_rmsnorm --dtype bf16 --tokens 1024 --hidden 163840,196608,229376,262144 --reps 40)
timeout 90 python3 scripts/template_ab.py --normjit "$nj" base "nopre=$nopre/kernel_templates" "${args[@]}" \
  > "$R/pre-r1.txt" 2>&1; echo "r1 rc=$? at $(elapsed) s"
timeout 90 python3 scripts/template_ab.py --normjit "$nj" "nopre=$nopre/kernel_templates" base "${args[@]}" \
  > "$R/pre-r2.txt" 2>&1; echo "r2 rc=$? at $(elapsed) s"
cat "$R"/pre-r1.txt "$R"/pre-r2.txt
OUT=$R PEERS_DEADLINE=200 REBUILD=1 bash scripts/peers_tables.sh wide > "$R/peers-tables.log" 2>&1
echo "wide rc=$? at $(elapsed) s"
grep -E "^\|" "$R/wide.txt" | cut -c1-220
for cfg in "--tokens 8 --hidden 2048 --config cluster=16" "--tokens 9 --hidden 2048 --config cluster=16" \
           "--tokens 12 --hidden 2048 --config cluster=16" "--tokens 15 --hidden 2048 --config cluster=16" \
           "--tokens 15 --hidden 2048 --config cluster=8" "--tokens 200 --hidden 16384 --config cluster=8" \
           "--tokens 200 --hidden 16384 --config cluster=16"; do
  [ $(elapsed) -lt 500 ] || { echo "skip $cfg"; continue; }
  echo "== synccheck: rmsnorm bf16 $cfg"
  timeout 40 "${CS:-compute-sanitizer}" --tool synccheck --print-limit 4 "$nj" bench --op rmsnorm $cfg --reps 2 2>&1 |
    grep -v "^device-to-device\|^op " | head -40
done > "$R/cluster-synccheck.txt" 2>&1
cat "$R/cluster-synccheck.txt"
echo "done at $(elapsed) s"
