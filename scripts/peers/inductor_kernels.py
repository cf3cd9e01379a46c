#!/usr/bin/env python3
"""Prints the Triton kernels torch.compile generates for rmsnorm and the fused add (their loads,
eviction policies and loops) and the launch config each autotuner kept (XBLOCK, R0_BLOCK,
num_warps, num_stages), default and max-autotune. On the GPU machine:

  python3 scripts/peers/inductor_kernels.py [--shapes rms:32768x8192,fused:32768x4096,heads:8192x32x64/48]
      [--launches] [--ptx-dir DIR]

--launches profiles one call of each compiled function and prints the grid, block and registers
per thread of every kernel it ran: which of the autotuner's configs actually runs. --ptx-dir
copies the PTX and metadata of every Triton kernel compiled (a fresh TRITON_CACHE_DIR is set
up before torch loads, so the directory holds this run's kernels only).
"""
import argparse
import gc
import glob
import json
import os
import shutil
import sys
import tempfile

# --ptx-dir wants this run's kernels only: a fresh Triton cache, set before torch (and Triton)
# load, and no inductor cache serving kernels compiled by an earlier run.
# Inductor may compile in worker processes and keep Triton's output under its own cache folder,
# so both folders are fresh and both are searched (--ptx-dir found nothing in the Triton folder
# alone with torch 2.11's default mode, session 21).
if any(arg.startswith("--ptx-dir") for arg in sys.argv):
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp()
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp()
    os.environ["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1"

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch._inductor.utils import run_and_get_code  # noqa: E402

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


def print_launches(fn, args, label):
    """Grid, block and registers of every kernel one call of fn runs (from the profiler's trace)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(*args)
        torch.cuda.synchronize()
    with tempfile.NamedTemporaryFile(suffix=".json") as tr:
        prof.export_chrome_trace(tr.name)
        events = json.load(open(tr.name))["traceEvents"]
    for e in events:
        if e.get("cat") == "kernel":
            g = e.get("args", {})
            print(f"launch: {label}: {e['name']} grid {g.get('grid')} block {g.get('block')} "
                  f"registers {g.get('registers per thread')} shared {g.get('shared memory')} "
                  f"profiled {e.get('dur')} us", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="rms:32768x4096,rms:32768x8192,rms:32768x16384,rms:8192x8192,"
                                        "fused:32768x4096,fused:32768x8192")
    ap.add_argument("--modes", default="default,max-autotune-no-cudagraphs")
    ap.add_argument("--launches", action="store_true", help="print each kernel's grid, block and registers")
    ap.add_argument("--ptx-dir", default="", help="copy the PTX of every Triton kernel compiled here")
    a = ap.parse_args()
    for item in a.shapes.split(","):
        kind, shape = item.split(":")
        if kind == "heads":  # per-head rows TxNxD, or TxNxD/Q: the first N heads of a [T, Q, D] tensor
            dims, _, qkv = shape.partition("/")
            T, N, H = map(int, dims.split("x"))
            x = torch.randn(T, int(qkv or N), H, device="cuda", dtype=torch.bfloat16)[:, :N, :]
        else:
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
            print(f"===== {kind} {shape} {mode}", flush=True)
            for c in codes:
                print("\n".join(l for l in c.splitlines() if any(k in l for k in KEEP)))
            for name, cfg in kept_configs():
                print(f"kept config: {name}: {cfg}", flush=True)
            if a.launches:
                print_launches(fn, (x, r, w), f"{kind} {shape} {mode}")
    if a.ptx_dir:
        os.makedirs(a.ptx_dir, exist_ok=True)
        copied = 0
        for root in (os.environ["TRITON_CACHE_DIR"], os.environ["TORCHINDUCTOR_CACHE_DIR"]):
            for ptx in glob.glob(root + "/**/*.ptx", recursive=True):
                d = os.path.dirname(ptx)
                for f in glob.glob(d + "/*.ptx") + glob.glob(d + "/*.json") + glob.glob(d + "/*.cubin"):
                    shutil.copy(f, os.path.join(a.ptx_dir, f"{os.path.basename(d)[:10]}-{os.path.basename(f)}"))
                    copied += 1
        print(f"PTX, cubins and metadata ({copied} files) in {a.ptx_dir} (num_warps, num_stages and shared "
              f"bytes in each .json)")


if __name__ == "__main__":
    main()
