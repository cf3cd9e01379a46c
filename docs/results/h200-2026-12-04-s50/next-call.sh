#!/usr/bin/env bash
# Not run (written at the end of session 50): no kernel changed in session 50, whose call 1 ran
# the whole suite on this code. A next session that changes kernels starts from its own suite;
# one that does not can spend its first call on the decode misses of target 3 beside a
# same-bytes copy in `--fill kernel` state (lead 2), e.g.:
# Copy to build-tmp/ (rename the call) and carry build-tmp .devdeps .whl cache/prewarmed.
source "$(dirname "$0")/../scripts/device_call.sh" s51call1
build_cli > /dev/null || exit 1
call_deadline=400
for fill in memset kernel; do
  left=$(time_left) || break
  timeout $left $nj bench --latency --fill $fill > "$R/latency-$fill.txt" 2>&1
  echo "latency $fill rc=$? at $(elapsed) s"
  grep -E "128 x 4096|32 x 8192" "$R/latency-$fill.txt" | head -4
done
echo "done at $(elapsed) s"
