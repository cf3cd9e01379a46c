#!/usr/bin/env python3
"""Prints the Triton kernels torch.compile generates for rmsnorm and the fused add (their loads,
eviction policies and loops) and the launch config each autotuner kept (XBLOCK, R0_BLOCK,
num_warps, num_stages), default and max-autotune. On the GPU machine:

  python3 scripts/peers/inductor_kernels.py [--shapes rms:32768x8192,fused:32768x4096]
"""
import argparse
import gc

import torch
import torch.nn.functional as F
from torch._inductor.utils import run_and_get_code

KEEP = ("@triton", "def triton", "tl.load", "tl.store", "XBLOCK", "R0_BLOCK", "RBLOCK", "num_warps",
        "for r0_offset", "for roffset", "eviction", ".run(")


def kept_configs():
    """(kernel name, config) of every live autotuner: after a call only the chosen launcher is left."""
    try:
        from torch._inductor.runtime.triton_heuristics import CachingAutotuner
    except ImportError:
        return []
    out = []
    for o in gc.get_objects():
        try:
            tuner = isinstance(o, CachingAutotuner)
        except ReferenceError:  # a dead weak proxy among the objects
            continue
        if tuner:
            name = getattr(getattr(o, "fn", None), "__name__", "?")
            for launcher in getattr(o, "launchers", []) or []:
                out.append((name, getattr(launcher, "config", launcher)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="rms:32768x4096,rms:32768x8192,rms:32768x16384,rms:8192x8192,"
                                        "fused:32768x4096,fused:32768x8192")
    ap.add_argument("--modes", default="default,max-autotune-no-cudagraphs")
    a = ap.parse_args()
    for item in a.shapes.split(","):
        kind, shape = item.split(":")
        T, H = map(int, shape.split("x"))
        x = torch.randn(T, H, device="cuda", dtype=torch.bfloat16)
        r = torch.randn_like(x)
        w = torch.rand(H, device="cuda", dtype=torch.bfloat16) + 1
        for mode in a.modes.split(","):
            torch._dynamo.reset()
            gc.collect()
            if kind == "fused":
                def f(x, r, w):
                    r.add_(x)
                    x.copy_(F.rms_norm(r, (H,), w, 1e-6))
            else:
                def f(x, r, w):
                    return F.rms_norm(x, (H,), w, 1e-6)
            fn = torch.compile(f, mode=mode, dynamic=False)
            _, codes = run_and_get_code(fn, x, r, w)
            print(f"===== {kind} {T}x{H} {mode}", flush=True)
            for c in codes:
                print("\n".join(l for l in c.splitlines() if any(k in l for k in KEEP)))
            for name, cfg in kept_configs():
                print(f"kept config: {name}: {cfg}", flush=True)


if __name__ == "__main__":
    main()
