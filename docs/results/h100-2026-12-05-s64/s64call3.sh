#!/usr/bin/env bash
# Session 64, call 3 (carry build-tmp): scripts/cluster_synccheck_probe.cu, without normjit: three
# cluster patterns (0: cluster barrier only; 1: cg cluster.sync; 2: reduce.cuh's st.async exchange)
# at 8- and 16-CTA clusters and 1-200 clusters, plain and under synccheck (and memcheck for 2).
source "$(dirname "$0")/../scripts/device_call.sh" ${CALL:-s64call3}
nvidia-smi --query-gpu=name --format=csv,noheader
nvcc -std=c++17 -arch=sm_90a -o "$R/../probe" scripts/cluster_synccheck_probe.cu || exit 1
p=$R/../probe
CS=${CS:-compute-sanitizer}
{
  for mode in ${MODES:-0 1 2}; do for cl in ${CLUSTERS:-8 16}; do for n in ${COUNTS:-1 5 8 200}; do
    [ $(elapsed) -lt 400 ] || { echo "skip $mode $cl $n"; continue; }
    echo "plain: $(timeout 20 $p $mode $cl $n 2>&1)"
    echo "synccheck: $(timeout 40 $CS --tool synccheck --print-limit 2 $p $mode $cl $n 2>&1 | grep -v '^========= $' | tr '\n' ' ')"
  done; done; done
  for n in ${CHECK_COUNTS:-8 200}; do
    echo "memcheck: $(timeout 40 $CS --tool memcheck --print-limit 2 $p 2 16 $n 2>&1 | tr '\n' ' ')"
    echo "racecheck: $(timeout 40 $CS --tool racecheck --print-limit 2 $p 2 16 $n 2>&1 | tr '\n' ' ')"
  done
} > "$R/probe.txt" 2>&1
cat "$R/probe.txt"
echo "done at $(elapsed) s"
