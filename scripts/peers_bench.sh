#!/usr/bin/env bash
# On the GPU machine: the side-by-side of normjit and its peers (scripts/peers_bench.py).
# Needs .whl/ from scripts/peers/fetch_peers.sh (carried) and .devdeps/ for the build.
#   bash scripts/peers_bench.sh [peers_bench.py arguments]
set -uo pipefail
source "$(dirname "$0")/gpu_build.sh"
if [ ! -x "$build/normjit" ] || [ "${REBUILD:-1}" = 1 ]; then
  gpu_build peers- normjit normjit_cli || exit 1
fi
site=/tmp/normjit-peers-site
if ls "$root"/.whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" \
    "$root"/.whl/*.whl || exit 1
  export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
fi
if [ -f "$root/.whl/flashinfer-include.tgz" ]; then
  inc=$(mktemp -d)
  tar xzf "$root/.whl/flashinfer-include.tgz" -C "$inc"
  export FLASHINFER_SHIM=/tmp/libflashinfer_shim.so
  nvcc -O3 -std=c++17 -shared -Xcompiler -fPIC -gencode arch=compute_90a,code=sm_90a -DENABLE_BF16 \
    -DENABLE_FP8 -I"$inc" -o "$FLASHINFER_SHIM" "$root/scripts/peers/flashinfer_shim.cu" ||
    echo "flashinfer shim: build failed; FlashInfer left out" >&2
fi
export NORMJIT_LIBRARY=$build/libnormjit.so
export PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH}
export NORMJIT_CACHE_DIR=${NORMJIT_CACHE_DIR:-$(mktemp -d)}
python3 "$root/scripts/peers_bench.py" "$@"
