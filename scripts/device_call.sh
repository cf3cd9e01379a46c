# Sourced by a one-off device-call script (build-tmp/sNNcallK.sh, run on the GPU machine as
# `bash build-tmp/sNNcallK.sh` through the device tool): the steps every such call repeats.
#   source scripts/device_call.sh sNNcallK
# then: $R is the output folder ($OUT/r); on exit it is tarred into $OUT/sNNcallK.tgz, since the
# device tool brings back only a few loose files. `elapsed` prints the seconds since the start;
# `build_cli [TARGET ...]` builds build-gpu/normjit ($nj) and the targets named (e.g. test_gpu:
# build-gpu/tests/gpu/test_gpu); `bench_compare` times configs interleaved (below);
# `gpu_suite_summary [TIMEOUT]` runs scripts/gpu_suite.sh with its logs in $R and prints its
# summary (and failures).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
call_name=${1:?usage: source scripts/device_call.sh NAME}
call_start=$(date +%s)
R=$OUT/r
mkdir -p "$R"
trap 'cd "$R/.." && tar czf "$call_name.tgz" r' EXIT
nj=build-gpu/normjit

elapsed() { echo $(( $(date +%s) - call_start )); }

build_cli() {
  source scripts/gpu_build.sh
  gpu_build "" normjit_cli "$@" > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; return 1; }
  echo "built at $(elapsed) s"
}

gpu_suite_summary() {
  OUT=$R NORMJIT_SKIP_BENCH=0 timeout "${1:-380}" bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
  local rc=$?
  echo "suite rc=$rc at $(elapsed) s"
  sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
  [ $rc -eq 0 ] || grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60
  return $rc
}

# bench_compare NAME OP DTYPE TOKENS HIDDEN CONFIGS: `normjit bench --compare` into $R/NAME.txt,
# 40 samples, stopping by $call_deadline seconds into the call (default 560; skipped with less
# than 20 s left). Prints the exit status and the elapsed time.
bench_compare() {
  local left=$(( ${call_deadline:-560} - $(elapsed) ))
  [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op "$2" --dtype "$3" --tokens "$4" --hidden "$5" --reps 40 --compare "$6" > "$R/$1.txt" 2>&1
  echo "$1 rc=$? at $(elapsed) s"
}
