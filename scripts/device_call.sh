# Sourced by a one-off device-call script (build-tmp/sNNcallK.sh, run on the GPU machine as
# `bash build-tmp/sNNcallK.sh` through the device tool): the steps every such call repeats.
#   source scripts/device_call.sh sNNcallK
# then: $R is the output folder ($OUT/r); on exit it is tarred into $OUT/sNNcallK.tgz, since the
# device tool brings back only a few loose files. `elapsed` prints the seconds since the start;
# `build_cli [TARGET ...]` builds build-gpu/normjit ($nj) and the targets named (e.g. test_gpu:
# build-gpu/tests/gpu/test_gpu); `lat` runs one `bench --latency` process (below); `bench_compare`
# times configs interleaved (below);
# `gpu_suite_summary [TIMEOUT]` runs scripts/gpu_suite.sh with its logs in $R and prints its
# summary (and failures); `bench_run` and `rounds_side_by_side` time `--compare` rounds in
# separate processes and put them side by side (below).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
call_name=${1:?usage: source scripts/device_call.sh NAME}
call_start=$(date +%s)
R=$OUT/r
mkdir -p "$R"
trap 'cd "$R/.." && tar czf "$call_name.tgz" r' EXIT
nj=build-gpu/normjit

elapsed() { echo $(( $(date +%s) - call_start )); }

# time_left: the seconds left until $call_deadline seconds into the call (default 560); fails
# with less than 20 left (too little for a bench process).
time_left() {
  local left=$(( ${call_deadline:-560} - $(elapsed) ))
  [ $left -ge 20 ] && echo $left
}

build_cli() {
  source scripts/gpu_build.sh
  gpu_build "" normjit_cli "$@" > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; return 1; }
  echo "built at $(elapsed) s"
}

gpu_suite_summary() {
  OUT=$R NORMJIT_SKIP_BENCH=0 timeout "${1:-560}" bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
  local rc=$?
  echo "suite rc=$rc at $(elapsed) s"
  sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
  [ $rc -eq 0 ] || grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60
  return $rc
}

# lat NAME [BENCH ARGS]: `normjit bench --latency ARGS` into $R/latency-NAME.txt, one process
# each, at most 100 s, skipped with less than 20 s left before $call_deadline. Prints the exit
# status and the elapsed time; `python3 scripts/latency_compare.py` puts the files side by side.
lat() {
  local name=$1 left; shift
  left=$(time_left) || { echo "skip latency $name"; return; }
  [ $left -gt 100 ] && left=100
  timeout $left "$nj" bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "latency $name rc=$? at $(elapsed) s"
}

# bench_compare NAME OP DTYPE TOKENS HIDDEN CONFIGS: `normjit bench --compare` into $R/NAME.txt,
# 40 samples, stopping by $call_deadline seconds into the call (default 560; skipped with less
# than 20 s left). Prints the exit status and the elapsed time.
bench_compare() {
  local left
  left=$(time_left) || { echo "skip $1"; return; }
  timeout $left $nj bench --op "$2" --dtype "$3" --tokens "$4" --hidden "$5" --reps 40 --compare "$6" > "$R/$1.txt" 2>&1
  echo "$1 rc=$? at $(elapsed) s"
}

# bench_run NAME ARGS...: `normjit bench --reps 60 ARGS` into $R/NAME.txt, stopping by
# $call_deadline seconds into the call (default 560; skipped with less than 20 s left). Run it once
# a round (NAME-r1, NAME-r2, ...) so that each round is its own process.
bench_run() {
  local left
  left=$(time_left) || { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --reps 60 "$@" > "$R/$name.txt" 2>&1
  echo "$name rc=$? at $(elapsed) s"
}

# rounds_side_by_side NAME ROUNDS: one line per shape and config of $R/NAME-r1.txt ...
# $R/NAME-rROUNDS.txt (bench --compare output): op, dtype, tokens, hidden, config, then each
# round's median; lines of configs not valid there or FAILED as they are.
rounds_side_by_side() {
  local name=$1 rounds=$2 r
  echo "== $name"
  for r in $(seq 1 "$rounds"); do
    grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$name-r$r.txt" |
      awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$1,$2,$3,$4,$5,$6 }'
  done | sort -k2,2 -k3,3 -k4,4n -k5,5n -k6,6 -k1,1n |
    awk '{k=$2" "$3" "$4" "$5" "$6; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$7} END {print line}'
}
