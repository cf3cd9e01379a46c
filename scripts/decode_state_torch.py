#!/usr/bin/env python3
"""Which decode-latency state a PyTorch process is in (issue 4, target 3; docs/benchmark-history.md, "Nineteenth run").

`scripts/decode_anatomy.cu --script` found that after cuMemsetD8 on freshly allocated small
buffers, every kernel of the process runs slower per launch in CUDA graphs replayed after an L2
flush (a minimal norm as much as normjit's), and `normjit bench --latency --fill memset|kernel`
measures both states. This script asks which state a torch process is in: normjit's decode
kernels (through normjit.norm, PDL on) per launch in a CUDA graph of 100, median of 30 replays
each after an L2 flush, on tensors from torch.randn; then after torch.zeros of small tensors; then
after cuMemsetD8 on a fresh small cuMemAlloc (the driver API through ctypes).

  NORMJIT_LIBRARY=build-gpu/libnormjit.so python3 scripts/decode_state_torch.py
"""
import ctypes
import statistics

import torch

from normjit.norm import fused_add_rmsnorm, rmsnorm

dev = torch.device("cuda")
flush_buf = torch.ones(256 << 20 >> 3, dtype=torch.int64, device=dev)  # 256 MiB, read to flush L2


def per_launch_us(fn):
    fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(100):
            fn()
    for _ in range(3):
        g.replay()
    times = []
    for _ in range(30):
        flush_buf.sum()  # reads 256 MiB (its one-element result comes from the caching allocator)
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1000 / 100)
    return statistics.median(times)


def shapes():
    out = {}
    x = torch.randn(128, 4096, dtype=torch.bfloat16, device=dev)
    w = torch.randn(4096, dtype=torch.bfloat16, device=dev)
    y = torch.empty_like(x)
    out["rmsnorm 128 x 4096"] = per_launch_us(lambda: rmsnorm(x, w, out=y, enable_pdl=True))
    x2 = torch.randn(128, 2048, dtype=torch.bfloat16, device=dev)
    r2 = torch.randn(128, 2048, dtype=torch.bfloat16, device=dev)
    w2 = torch.randn(2048, dtype=torch.bfloat16, device=dev)
    out["fused_add_rmsnorm 128 x 2048"] = per_launch_us(lambda: fused_add_rmsnorm(x2, r2, w2, enable_pdl=True))
    x3 = torch.randn(32, 8192, dtype=torch.bfloat16, device=dev)
    w3 = torch.randn(8192, dtype=torch.bfloat16, device=dev)
    y3 = torch.empty_like(x3)
    out["rmsnorm 32 x 8192"] = per_launch_us(lambda: rmsnorm(x3, w3, out=y3, enable_pdl=True))
    return out


def report(label):
    print(label)
    for k, v in shapes().items():
        print(f"  {k:<30} {v:.3f} us per launch")


report("tensors from torch.randn:")
zs = [torch.zeros(n, dtype=torch.bfloat16, device=dev) for n in (2048, 4096, 1 << 19)]
torch.cuda.synchronize()
report("after torch.zeros of 4 KiB, 8 KiB and 1 MiB tensors:")
cuda = ctypes.CDLL("libcuda.so.1")
for n in (4096, 8192, 1 << 20):
    p = ctypes.c_uint64()
    assert cuda.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(n)) == 0
    assert cuda.cuMemsetD8_v2(p, ctypes.c_ubyte(0x3c), ctypes.c_size_t(n)) == 0
assert cuda.cuCtxSynchronize() == 0
report("after cuMemsetD8 on fresh 4 KiB, 8 KiB and 1 MiB cuMemAlloc buffers:")
