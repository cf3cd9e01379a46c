#!/usr/bin/env bash
# Do two kernel-template sets build the same machine code? Builds the same problems with each set
# (NORMJIT_TEMPLATE_DIR; `base` is the set embedded in the build) into two fresh caches and
# compares every kernel's SASS by config name. No GPU needed. Use it for a change that claims to
# leave the kernels alone, or to show that each kernel of a new set is one already timed on the
# GPU in a template variant (scripts/template_ab.py).
#   scripts/sass_diff.sh [--normjit build/normjit] A B [prewarm arguments]
#   (default prewarm arguments: --manifest all --arch sm_90)
# Prints one line per kernel (same, differs, only in one set) and exits 1 if any is not the same.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nj=$root/build/normjit
if [ "${1:-}" = --normjit ]; then nj=$2; shift 2; fi
[ $# -ge 2 ] || { echo "usage: scripts/sass_diff.sh [--normjit PATH] A|base B|base [prewarm arguments]" >&2; exit 2; }
a=$1 b=$2
shift 2
[ $# -gt 0 ] || set -- --manifest all --arch sm_90
if ! command -v cuobjdump >/dev/null; then
  # scripts/sass.sh fetches cuobjdump from PyPI into .tools/ when the toolkit lacks it.
  [ -x "$root/.tools/nvidia/cu13/bin/cuobjdump" ] || "$root/scripts/sass.sh" /nonexistent >/dev/null 2>&1 || true
  export PATH=$root/.tools/nvidia/cu13/bin:$PATH
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Kernel name -> SASS without addresses' encodings, one file per kernel, under $tmp/$2.
build_set() {
  local dir=$1 out=$tmp/$2
  mkdir -p "$out"
  if [ "$dir" = base ]; then
    env -u NORMJIT_TEMPLATE_DIR "$nj" prewarm --cache-dir "$tmp/cache-$2" --progress lines "${@:3}" >"$tmp/$2.log" 2>&1
  else
    NORMJIT_TEMPLATE_DIR=$dir "$nj" prewarm --cache-dir "$tmp/cache-$2" --progress lines "${@:3}" >"$tmp/$2.log" 2>&1
  fi || { echo "$dir: prewarm failed:" >&2; tail -5 "$tmp/$2.log" >&2; exit 2; }
  find "$tmp/cache-$2" -name '*.cubin' | while read -r f; do
    name=$(basename "$f" .cubin)
    name=${name%-*}  # drop the key hash, which covers the template text
    tail -c +65 "$f" >"$tmp/k.cubin"  # a cache entry is a 64-byte header, then the cubin
    cuobjdump -sass "$tmp/k.cubin" | grep -E '^\s+/\*[0-9a-f]+\*/' | sed 's#/\* 0x.*##' >"$out/$name"
  done
}
build_set "$a" A "$@"
build_set "$b" B "$@"

status=0
for name in $( (ls "$tmp/A"; ls "$tmp/B") | sort -u); do
  if [ ! -f "$tmp/A/$name" ]; then echo "only in $b  $name"; status=1
  elif [ ! -f "$tmp/B/$name" ]; then echo "only in $a  $name"; status=1
  elif cmp -s "$tmp/A/$name" "$tmp/B/$name"; then echo "same        $name"
  else echo "differs     $name ($(diff "$tmp/A/$name" "$tmp/B/$name" | grep -c '^[<>]') lines)"; status=1
  fi
done
exit $status
