#!/usr/bin/env bash
# Device call 7 (session 27, kernels as 533c72e): the re-read's second pass with both items'
# loads before the first store where a thread re-reads 2-3 items, the last part-filled (variant
# build-tmp/tpl_pair2: kPairs extended, the pair's loads predicated; 32 registers as before), as
# torch.compile's kernel at 7168 issues them. base / pair2, one process each, ABAB, each process
# interleaving the default with the forced re-read. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s27call7.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
C="default;tpr=512,residency=2,loads=3,minb=0,pin_weight=0"
one() {  # name tdir
  local c; c=$(mktemp -d)
  if [ "$2" = base ]; then unset NORMJIT_TEMPLATE_DIR; else export NORMJIT_TEMPLATE_DIR=$2; fi
  timeout 90 $nj bench --cache-dir "$c" --op rmsnorm --tokens 8192,16384,32768 --hidden 7168,9216,10240 --reps 30 --compare "$C" >> "$R/pair2-$1.txt" 2>&1
  timeout 60 $nj bench --cache-dir "$c" --op rmsnorm --dtype fp32 --tokens 16384,32768 --hidden 3584,5120 --reps 30 >> "$R/pair2-$1.txt" 2>&1
  unset NORMJIT_TEMPLATE_DIR
  echo "$1 $2 done at $(( $(date +%s) - start )) s"
}
one base-r1 base; one pair2-r1 build-tmp/tpl_pair2; one base-r2 base; one pair2-r2 build-tmp/tpl_pair2
for f in "$R"/pair2-*.txt; do echo "## $(basename $f)"; grep -v "^device" "$f" | awk '{print $2,$3,$4,$5,$6,$11}'; done
