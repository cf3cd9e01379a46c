#!/usr/bin/env bash
# Device call 4 (session 16): several rows per thread (rms_norm_rows, kRowsPerThread from the
# experimental NORMJIT_EXP_RPT in the working tree) at the 3-D shapes, CTA shapes of 64-128
# threads, with and without griddepcontrol (nopdl2). Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s16call4.tgz r' EXIT
export OUT=$R
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
B() { # rpt template config shapes...
  local rpt=$1 tpl=$2 cfg=$3; shift 3
  local c=$(mktemp -d)
  NORMJIT_EXP_RPT=$rpt NORMJIT_TEMPLATE_DIR=$tpl $nj bench --cache-dir $c --reps 40 --op rmsnorm "$@" ${cfg:+--config $cfg} 2>&1 | grep -E "^rmsnorm|rror" | sed "s/^/rpt$rpt $(basename ${tpl:-base}) /"
}
{
for round in 1 2; do
  for tpl in "" build-tmp/tpl16-nopdl2; do
    B 1 "$tpl" "" --tokens 65536,221184 --hidden 128
    B 2 "$tpl" "" --tokens 65536,221184 --hidden 128
    B 2 "$tpl" tpr=16,rpb=4 --tokens 65536,221184 --hidden 128
    B 2 "$tpl" tpr=16,rpb=8 --tokens 65536,221184 --hidden 128
    B 4 "$tpl" tpr=16,rpb=4 --tokens 65536,221184 --hidden 128
    B 1 "$tpl" "" --tokens 32768 --hidden 256
    B 2 "$tpl" "" --tokens 32768 --hidden 256
    B 2 "$tpl" tpr=32,rpb=4 --tokens 32768 --hidden 256
    B 2 "$tpl" tpr=16,rpb=4 --tokens 32768 --hidden 256
    B 1 "$tpl" "" --tokens 131072 --hidden 64
    B 2 "$tpl" "" --tokens 131072 --hidden 64
    B 2 "$tpl" tpr=8,rpb=8 --tokens 131072 --hidden 64
  done
done
} > "$R/rpt.txt" 2>&1
cat "$R/rpt.txt"
echo "done at $(( $(date +%s) - start )) s"
