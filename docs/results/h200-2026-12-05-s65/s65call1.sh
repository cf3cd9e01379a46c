#!/usr/bin/env bash
# Session 65, call 1 (as session 64 call 5) (carry build-tmp .devdeps .whl): only on an H200 (exits at once on another
# GPU): target 2's wide rows beside the peers with the staged pre-weight template (first on an
# H200), its A/B against the template without it (one round), target 3's decode graphs.
source "$(dirname "$0")/../scripts/device_call.sh" s65call1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu"
case $gpu in *H200*) ;; *) echo "not an H200: nothing run"; exit 0 ;; esac
build_cli > /dev/null || exit 1
OUT=$R PEERS_DEADLINE=200 REBUILD=1 bash scripts/peers_tables.sh wide > "$R/peers-tables.log" 2>&1
echo "wide rc=$? at $(elapsed) s"
grep -E "^\|" "$R/wide.txt" | cut -c1-220
timeout 120 "$nj" bench --latency > "$R/latency.txt" 2>&1; echo "latency rc=$? at $(elapsed) s"
grep -E "graph|x " "$R/latency.txt" | head -40
root=$PWD nopre=$(mktemp -d)
cp -r kernel_templates "$nopre/" && (cd "$nopre" && patch -p1 -s < "$root/build-tmp/no-pre-weight.patch") || exit 1
timeout 90 python3 scripts/template_ab.py --normjit "$nj" base "nopre=$nopre/kernel_templates" -- --op fused_add_rmsnorm \
  --dtype bf16 --tokens 1024 --hidden 196608,262144 --reps 40 > "$R/pre-r1.txt" 2>&1; echo "ab rc=$? at $(elapsed) s"
cat "$R/pre-r1.txt"
echo "done at $(elapsed) s"
