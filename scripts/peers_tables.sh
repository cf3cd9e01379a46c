#!/usr/bin/env bash
# On the GPU machine: issue 4's side-by-side tables (scripts/peers_bench.sh), each with the
# arguments docs/benchmarks.md quotes, into $OUT (else gpu-out/) as TABLE.csv, TABLE.txt and
# TABLE-stderr.txt; the grid's target figures into targets.txt. The first table run builds
# normjit, the others reuse that build.
#   bash scripts/peers_tables.sh [TABLE ...]      TABLE: grid, gemma, wide, 3d, 3d-strided (default: all)
#   PEERS_DRY_RUN=1 bash scripts/peers_tables.sh  prints the commands only
# PEERS_DEADLINE=S (seconds from the start) skips tables with less than 30 s left and stops the
# one running at S; each table has a budget of its own as well (what it took on an H200, doubled;
# the first table's budget includes the build).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
start=$(date +%s)

table_args() {
  case $1 in
    grid) echo "--ops rmsnorm,fused_add_rmsnorm --autotune-min-tokens 8192 --reps 40" ;;
    gemma) echo "--ops gemma_rmsnorm,gemma_fused_add_rmsnorm --tokens 1,128,2048,32768 --hidden 4096,8192" \
      "--autotune-min-tokens 100000000 --reps 40" ;;
    wide) echo "--ops rmsnorm,fused_add_rmsnorm --tokens 1024 --hidden 32768,65536,131072,262144 --reps 20" \
      "--autotune-min-tokens 1000000" ;;
    3d) echo "--ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --heads" \
      "4608x48x128,8192x32x128,8192x8x128,4096x32x64,2048x16x256,4096x24x64,8192x16x256,8192x32x64" ;;
    3d-strided) echo "--ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --heads" \
      "2048x32x128/48,4096x32x128/48,8192x32x128/48,16384x8x128/48,8192x32x64/48,4096x32x64/48,32768x8x64/48,4096x16x256/24" ;;
    *) return 1 ;;
  esac
}

# Seconds each table may take (about twice what it took on an H200 in session 40, builds apart).
table_budget() {
  case $1 in grid) echo 380 ;; gemma) echo 120 ;; wide) echo 150 ;; 3d | 3d-strided) echo 100 ;; esac
}

tables=("$@")
[ ${#tables[@]} -eq 0 ] && tables=(grid gemma wide 3d 3d-strided)
for t in "${tables[@]}"; do
  table_args "$t" >/dev/null || { echo "peers_tables.sh: unknown table '$t' (grid, gemma, wide, 3d, 3d-strided)" >&2; exit 2; }
done

rc=0 rebuild=${REBUILD:-1}
for t in "${tables[@]}"; do
  read -r -a args <<<"$(table_args "$t")"
  budget=$(table_budget "$t")
  [ "$rebuild" = 1 ] && budget=$((budget + 120))  # the build: about 60 s on the H200 machine
  if [ -n "${PEERS_DEADLINE:-}" ]; then
    left=$((PEERS_DEADLINE - $(date +%s) + start))
    [ "$left" -lt 30 ] && { echo "$t: skipped, ${left} s left"; rc=1; continue; }
    [ "$left" -lt "$budget" ] && budget=$left
  fi
  cmd=(bash "$root/scripts/peers_bench.sh" "${args[@]}" --csv "$out/$t.csv")
  if [ "${PEERS_DRY_RUN:-0}" = 1 ]; then
    echo "REBUILD=$rebuild timeout $budget ${cmd[*]} > $out/$t.txt"
    rebuild=0
    continue
  fi
  REBUILD=$rebuild timeout "$budget" "${cmd[@]}" >"$out/$t.txt" 2>"$out/$t-stderr.txt"
  r=$?
  rebuild=0
  echo "$t: rc=$r at $(($(date +%s) - start)) s"
  grep "geomean" "$out/$t.txt" | tail -3
  [ $r -eq 0 ] || rc=1
  if [ "$t" = grid ] && [ -s "$out/grid.csv" ]; then
    python3 "$root/scripts/peers/targets.py" "$out/grid.csv" >"$out/targets.txt" 2>&1 && head -12 "$out/targets.txt"
  fi
done
exit $rc
