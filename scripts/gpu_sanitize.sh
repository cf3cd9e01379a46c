#!/usr/bin/env bash
# The GPU tests' kernels under compute-sanitizer, on a machine with a CUDA GPU (one call):
#   memcheck   out-of-bounds or misaligned global and shared accesses, with every test buffer
#              ending where its last row does (NORMJIT_TEST_TIGHT_BUFFERS=1), so that a read
#              past a row's end, which the poisoned-output checks cannot see, is reported
#   racecheck  shared-memory hazards (block reductions, staged rows, a block's shared weight)
#   synccheck  barriers in divergent code, cluster barriers (clusters of up to 8 CTAs: synccheck
#              ends 16-CTA clusters that exchange through mbarriers in an illegal address from 8
#              clusters on, normjit's or scripts/cluster_synccheck_probe.cu's 60-line kernel alike,
#              where memcheck, racecheck and plain runs pass; session 64)
#   initcheck  reads of device memory nobody wrote
#
#   scripts/gpu_sanitize.sh [SECONDS]   (default 480: the time all runs share)
#   SANITIZE_MATCH=REGEX scripts/gpu_sanitize.sh ...   only the runs whose "tool|test case" matches
#
# Each tool runs over GPU test cases that between them launch every kernel family (held,
# re-read, staged and per-thread-copied rows, clusters, split rows, several rows a thread,
# per-head rows by row and by head block, PDL), one process per test case, each stopped at its
# share of the time left: the tools slow kernels 10-100x, and a report is printed when it is
# found, so a stopped run still shows what it saw. Logs go to $OUT (or ./gpu-out); the last
# lines are a summary, one line a run: the tool, the test case, its errors, how it ended.
set -uo pipefail
source "$(dirname "$0")/gpu_build.sh"
budget=${1:-480}
start=$(date +%s)

cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)
if [ -z "$cs" ]; then
  echo "SUMMARY: compute-sanitizer not found"
  exit 1
fi
gpu_build "sanitize-" test_gpu || { echo "SUMMARY: build failed"; exit 1; }
test_gpu=$build/tests/gpu/test_gpu
cache=$(mktemp -d)
[ -d "$root/cache/prewarmed" ] && cp -r "$root/cache/prewarmed/." "$cache/"  # fewer compiles in the runs

# tool|test case (a Catch2 name), in the order they run: the broad cases first.
runs=(
  "memcheck|every layout form at a few shapes"
  "memcheck|per-head 3-D rmsnorm"
  "memcheck|per-head rows from a transposed view (heads outermost in memory)"
  "memcheck|forced configs: rows staged in shared memory (bulk and per-thread copies)"
  "memcheck|forced configs: rows split over thread-block clusters"
  "memcheck|forced configs: rows shared by independent CTAs (split)"
  "memcheck|forced configs: every residency with narrow and wide row groups"
  "memcheck|forced configs: several rows a thread addressed from one base (dense rows)"
  "memcheck|per-head rows by head blocks: the default for strided head_dim 64, and forced layouts"
  "memcheck|default configs: wide rows held on 8-CTA clusters or by one 512-thread CTA"
  "memcheck|forced configs: clusters of several rows a block (column shares)"
  "racecheck|forced configs: rows staged in shared memory (bulk and per-thread copies)"
  "racecheck|forced configs: clusters of several rows a block (column shares)"
  "racecheck|forced configs: a block's rows sharing one weight read through shared memory"
  "racecheck|every layout form at a few shapes"
  "synccheck|forced configs: rows split over thread-block clusters"
  "synccheck|forced configs: clusters of several rows a block (column shares)"
  "synccheck|every layout form at a few shapes"
  "initcheck|every layout form at a few shapes"
  "initcheck|per-head 3-D rmsnorm"
)

if [ -n "${SANITIZE_MATCH:-}" ]; then
  kept=()
  for run in "${runs[@]}"; do [[ $run =~ $SANITIZE_MATCH ]] && kept+=("$run"); done
  runs=("${kept[@]}")
fi

summary=()
status=0
# The first line of each report compute-sanitizer prints (memcheck, racecheck, synccheck, initcheck).
report_re="^========= (Invalid|Race|Barrier|Uninitialized|Misaligned|Out-of-range|Program hit|Cluster|Warning|Error)"
for i in "${!runs[@]}"; do
  tool=${runs[$i]%%|*}
  name=${runs[$i]#*|}
  left=$(( budget - ($(date +%s) - start) ))
  share=$(( left / (${#runs[@]} - i) ))
  [ "$share" -ge 15 ] || share=15
  if [ "$left" -lt 15 ]; then
    summary+=("$tool | $name | not run (no time left)")
    continue
  fi
  log="$out/sanitize-$i-$tool.log"
  # Catch2 reads a name with commas or brackets as a list or a tag: escape them.
  spec=$(printf '%s' "$name" | sed 's/,/\\,/g; s/\[/\\[/g')
  t0=$(date +%s)
  max_cluster=16; [ "$tool" = synccheck ] && max_cluster=8
  NORMJIT_CACHE_DIR="$cache" NORMJIT_TEST_TIGHT_BUFFERS=1 NORMJIT_TEST_MAX_CLUSTER=$max_cluster timeout --signal=INT --kill-after=10 "$share" \
    "$cs" --tool "$tool" --error-exitcode 99 --print-limit 20 --leak-check no \
    "$test_gpu" "$spec" >"$log" 2>&1
  rc=$?
  errors=$(grep -Eo "ERROR SUMMARY: [0-9]+ error" "$log" | tail -1 | grep -Eo "[0-9]+" || true)
  # Reports found before a stop are in the log even without the final summary.
  seen=$(grep -Ec "$report_re" "$log" || true)
  case $rc in
    0) how="passed" ;;
    99) how="sanitizer errors"; status=1 ;;
    124|130|137) how="stopped at ${share} s" ;;
    77) how="skipped: no GPU"; status=1 ;;
    *) how="rc=$rc"; status=1 ;;
  esac
  if grep -q "Device not supported\|Target application terminated before first instrumented API call" "$log"; then
    how="compute-sanitizer could not run here: $(grep -m1 -E 'not supported|terminated' "$log" | cut -c1-120)"
    status=1
  fi
  summary+=("$tool | $name | errors: ${errors:-?} (reports seen: $seen) | $how in $(( $(date +%s) - t0 )) s")
  [ "$seen" = 0 ] || grep -E -m 12 -A4 "$report_re" "$log" | head -40
done

echo "== SUMMARY ($(date -u +%F), $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $("$cs" --version | grep -Eo 'Version [0-9.]+' | head -1))"
for line in "${summary[@]}"; do echo "  $line"; done
exit $status
