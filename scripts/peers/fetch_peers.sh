#!/usr/bin/env bash
# Run on a machine with PyPI access (not the GPU machine): fills .whl/ with what
# scripts/peers_bench.sh needs there, small enough to carry (the device tool carries <= 64 MiB):
#   .whl/liger_kernel-*.whl        Liger-Kernel (pure Python + Triton; torch/triton are on the device)
#   .whl/flashinfer-include.tgz    FlashInfer's header-only kernels, cut from the flashinfer-python
#                                  wheel (100 MB; its JIT needs packages the device lacks)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=$root/.whl
mkdir -p "$dest"
LIGER=${LIGER:-liger-kernel==0.8.5}
PACKAGING=${PACKAGING:-packaging==25.0}
FLASHINFER=${FLASHINFER:-flashinfer-python==0.7.4}
pip_dl() {
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    -d "$1" "$2"
}
pip_dl "$dest" "$LIGER"
pip_dl "$dest" "$PACKAGING"  # liger imports it; the GPU machine may lack it
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pip_dl "$tmp" "$FLASHINFER"
(cd "$tmp" && unzip -q flashinfer_python-*.whl 'flashinfer/data/include/*' &&
  tar czf "$dest/flashinfer-include.tgz" -C flashinfer/data/include flashinfer &&
  echo "flashinfer headers from $(ls flashinfer_python-*.whl)" >"$dest/flashinfer-include.txt")
ls -la "$dest"
