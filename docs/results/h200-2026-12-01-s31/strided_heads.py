#!/usr/bin/env python3
"""Per-head rmsnorm on strided head views (q of a fused [T, 3, H, D] qkv, the library's 3-D kernels),
bf16, L2 flushed before every sample, CUDA events, median of 60. One process; run it once per
template set (NORMJIT_TEMPLATE_DIR) and compare. Prints: shape, kernel form, median us."""
import statistics
import sys

import torch

import normjit

shapes = [(8192, 8, 128), (2048, 16, 256), (4608, 48, 128), (8192, 32, 128), (4096, 32, 64), (32768, 8, 128)]
label = sys.argv[1] if len(sys.argv) > 1 else "?"
flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
for T, H, D in shapes:
    qkv = torch.randn(T, 3, H, D, dtype=torch.bfloat16, device="cuda")
    q = qkv[:, 0]  # [T, H, D], strides (3HD, D, 1): not flat
    w = (torch.rand(D, device="cuda") + 0.5).to(torch.bfloat16)
    out = torch.empty(T, H, D, dtype=torch.bfloat16, device="cuda")
    normjit.rmsnorm(q, w, 1e-6, out=out)
    ref = (q.float() * torch.rsqrt(q.float().pow(2).mean(-1, keepdim=True) + 1e-6) * w.float())
    err = ((out.float() - ref).norm() / ref.norm()).item()
    us = []
    for _ in range(60):
        flush.zero_()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        normjit.rmsnorm(q, w, 1e-6, out=out)
        e.record()
        torch.cuda.synchronize()
        us.append(s.elapsed_time(e) * 1000)
    print(f"{label} {T}x{H}x{D} median {statistics.median(us):.2f} us (rel err {err:.1e})", flush=True)
