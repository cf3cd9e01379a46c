#!/usr/bin/env bash
# Session 36, call 8: strided head_dim-64 rows, where torch.compile stays 1-2 % ahead (call 7):
# its kernel and launch (inductor_kernels.py heads:...), and more block shapes of ours,
# interleaved, two rounds in two processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s36call8
build_cli || exit 1
timeout 150 python3 scripts/peers/inductor_kernels.py --shapes heads:8192x32x64/48,heads:4096x32x64/48 --modes default --launches --ptx-dir "$R/ptx" > "$R/inductor-heads64.txt" 2>&1
echo "inductor rc=$? at $(elapsed) s"; grep -E "XBLOCK|R0_BLOCK|num_warps|grid|regs|kept|=====|tl.load|tl.store|xindex|x0 =|x1 =" "$R/inductor-heads64.txt" | head -60
call_deadline=290
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --reps 60 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
for round in 1 2; do
  cmp q64-r$round --op rmsnorm --dtype bf16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 4096,8192 --compare "default;rpb=32;rpt=4;tpr=4,rpb=32;tpr=8,rpb=8;rpb=32,rpt=4;minb=12;loads=1"
done
for f in q64; do echo "== $f"; for r in 1 2; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
