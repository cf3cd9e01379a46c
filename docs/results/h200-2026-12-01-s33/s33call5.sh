#!/usr/bin/env bash
# Session 33, call 5: where the 3-D table trails torch.compile (2048 x 16 x 256, 8192 x 8 x 128):
# sweeps of held rows at 32768 x 256 and 65536 x 128 (one after another, 30 samples each).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s33call5
build_cli || exit 1
timeout 200 $nj bench --op rmsnorm --dtype bf16 --tokens 32768 --hidden 256 --reps 30 --sweep --config residency=0 > "$R/sweep256.txt" 2>&1
echo "sweep256 rc=$? at $(elapsed) s"
timeout 200 $nj bench --op rmsnorm --dtype bf16 --tokens 65536 --hidden 128 --reps 30 --sweep --config residency=0 > "$R/sweep128.txt" 2>&1
echo "sweep128 rc=$? at $(elapsed) s"
for f in sweep256 sweep128; do echo "== $f ($(grep -c . $R/$f.txt) lines)"; grep -v "not valid" "$R/$f.txt" | sort -k6 -n -t' ' 2>/dev/null | awk 'NF>8 && $6+0>0 {print $5,$6,$7,$8}' | sort -k2 -n | head -12; tail -3 "$R/$f.txt"; done
