#!/usr/bin/env bash
# Not run (written at the end of session 49, whose device time was spent): the whole GPU suite on
# the final tree (6a32cad's fp32 held rows ran only their GPU case, call 7), then the gemma table
# beside the peers if time is left. Copy to build-tmp/ (rename the call) and carry
# build-tmp .devdeps .whl cache/prewarmed.
source scripts/device_call.sh s50call1
gpu_suite_summary 500
left=$(time_left)
if [ "${left:-0}" -gt 60 ]; then
  OUT=$R PEERS_DEADLINE=$((left - 10)) REBUILD=0 bash scripts/peers_tables.sh gemma > "$R/peers-tables.log" 2>&1
  tail -4 "$R/gemma.txt"
fi
echo "done at $(elapsed) s"
