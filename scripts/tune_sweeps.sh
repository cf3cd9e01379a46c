#!/usr/bin/env bash
# On the GPU machine: `normjit bench --sweep` over a list of shapes in one call, each under its
# own time limit, and a summary of the best config per shape next to the heuristic's choice.
#   bash scripts/tune_sweeps.sh [--reps N] [--limit SECONDS] OP:TOKENSxHIDDEN[:KEY=V,...] ...
# e.g. bash scripts/tune_sweeps.sh rmsnorm:32768x4096 fused_add_rmsnorm:8192x8192:loads=3
# Builds into build-gpu/ (scripts/gpu_build.sh; .devdeps/ carried). Every sweep's full table
# and the summary go into one archive, $OUT/sweeps.tgz (the device tool returns few files).
set -uo pipefail
source "$(dirname "$0")/gpu_build.sh"
reps=20
limit=90
shapes=()
while [ $# -gt 0 ]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --limit) limit=$2; shift 2 ;;
    *) shapes+=("$1"); shift ;;
  esac
done
[ ${#shapes[@]} -gt 0 ] || { echo "usage: $0 [--reps N] [--limit S] OP:TxH[:config] ..." >&2; exit 2; }
if [ ! -x "$build/normjit" ] || [ "${REBUILD:-1}" = 1 ]; then
  gpu_build tune- normjit normjit_cli || exit 1
fi
logs=$out/sweeps
mkdir -p "$logs"
export NORMJIT_CACHE_DIR=${NORMJIT_CACHE_DIR:-$(mktemp -d)}
summary=$logs/summary.txt
: >"$summary"
for s in "${shapes[@]}"; do
  IFS=: read -r op shape config <<<"$s"
  tokens=${shape%x*}
  hidden=${shape#*x}
  name=$op-$tokens-$hidden${config:+-${config//[=,]/_}}
  args=(bench --op "$op" --tokens "$tokens" --hidden "$hidden" --sweep --reps "$reps")
  [ -n "$config" ] && args+=(--config "$config")
  # Line-buffered, so that a sweep stopped by its limit keeps what it timed.
  timeout "$limit" stdbuf -oL "$build/normjit" "${args[@]}" >"$logs/$name.txt" 2>&1
  rc=$?
  best=$(grep '^best:' "$logs/$name.txt")
  if [ -n "$best" ]; then
    echo "$best" | tee -a "$summary"
  else
    # Stopped early or failed: the fastest config it timed, from the table.
    line=$(grep -E "^$op " "$logs/$name.txt" | sort -k6 -g | head -1)
    echo "incomplete (rc=$rc): $s fastest so far: ${line:-none}" | tee -a "$summary"
    [ $rc -eq 124 ] || tail -n 3 "$logs/$name.txt"  # not the time limit: say why
  fi
done
tar czf "$out/sweeps.tgz" -C "$out" sweeps && rm -rf "$logs"
