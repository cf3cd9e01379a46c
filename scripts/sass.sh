#!/usr/bin/env bash
# SASS and resource use (registers, spills, shared memory) of cached kernels, without a GPU.
#   scripts/sass.sh CACHE_DIR [NAME_GLOB] [--res-only]
# (Registers and stack alone need no download: `normjit cache ls --cache-dir CACHE_DIR` shows them.)
# e.g. build/normjit prewarm --manifest all --arch sm_90 --cache-dir /tmp/c && scripts/sass.sh /tmp/c 'fused_add_rmsnorm-bf16-h8192*'
# cuobjdump and nvdisasm come from PyPI (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm) into
# .tools/ (git-ignored) when the toolkit here lacks them. A cache entry is a 64-byte header
# followed by the cubin (cache/README.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${1:?usage: scripts/sass.sh CACHE_DIR [NAME_GLOB] [--res-only]}
glob=${2:-*}
if ! command -v cuobjdump >/dev/null || ! command -v nvdisasm >/dev/null; then
  tools=$root/.tools
  if [ ! -x "$tools/nvidia/cu13/bin/nvdisasm" ]; then
    mkdir -p "$tools"
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
      --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 -d "$tools" \
      nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
    (cd "$tools" && for w in *.whl; do unzip -o -q "$w"; done)
  fi
  export PATH=$tools/nvidia/cu13/bin:$PATH
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$cache" -name "$glob.cubin" | sort | while read -r f; do
  echo "== $(basename "$f")"
  tail -c +65 "$f" >"$tmp/k.cubin"
  cuobjdump -res-usage "$tmp/k.cubin" | grep -o 'REG:.*' || true
  [ "${3:-}" = --res-only ] || cuobjdump -sass "$tmp/k.cubin" | grep -E '^\s+/\*[0-9a-f]+\*/' | sed 's/ *;.*//'
done
