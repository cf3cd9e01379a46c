#!/usr/bin/env bash
# Session 39, call 3: torch.compile's kernel for the strided 24-head rows of 64 (q of [8192, 72, 64]):
# its launch (grid, block, registers) and PTX; normjit's head blocks beside occupancy / load variants.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s39call3
build_cli || exit 1
timeout 200 python3 scripts/peers/inductor_kernels.py --shapes heads:8192x24x64/72,heads:16384x24x64/72 --launches \
  --ptx-dir "$R/ptx" > "$R/inductor.txt" 2>&1
echo "inductor rc=$? at $(elapsed) s"; grep -E "kept config|launch:" "$R/inductor.txt" | cut -c1-220
call_deadline=420
HB="tpr=8,rpb=12,rpt=2,head_blocks=1,weight_shared=1,reconvert=1"
C="default;$HB;$HB,minb=16;$HB,loads=1;$HB,weight_shared=0;$HB,reconvert=0"
for r in 1 2; do bench_run v24-r$r --op rmsnorm --dtype bf16 --hidden 64 --heads 24 --qkv-heads 72 --tokens 8192,16384 --compare "$C"; done
rounds_side_by_side v24 2
echo "done at $(elapsed) s"
