"""Host time per call of normjit's Python binding, next to torch's own RMSNorm.

Run on a machine with a CUDA GPU (from the repository root):

    NORMJIT_LIBRARY=$PWD/build/libnormjit.so python3 python/benchmarks/overhead.py [-v]

Measures wall-clock host time of back-to-back calls on a tiny problem (default bf16 [1, 4096],
so GPU time stays far below host time and the launch queue never fills), best of several
repetitions. Prints one line; -v adds the breakdown: the public function (eager fast path, no
dispatcher), the op through the C++ dispatcher (what compiled graphs and tracing call), the
binding's packing + C call alone, and the C ABI call alone.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # python/

import torch  # noqa: E402

import normjit  # noqa: E402
from normjit import _library, _ops  # noqa: E402


def host_us(fn, calls=100, reps=30):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        best = min(best, (t1 - t0) / calls)
    return best * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=4096)
    ap.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float16", "float32"])
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("overhead.py needs a CUDA GPU")
    dtype = getattr(torch, a.dtype)
    x = torch.randn(a.rows, a.hidden, device="cuda", dtype=dtype)
    r = torch.randn_like(x)
    w = torch.randn(a.hidden, device="cuda", dtype=dtype)
    o = torch.empty_like(x)
    eps = 1e-6

    lib = _library.get()
    s = _ops._scratch
    _ops._rms("rmsnorm", o, x, w, eps, None)  # packs s.p0..p2 for the raw call below
    stream = torch.cuda.current_stream().cuda_stream
    raw = lib.rmsnorm
    F = torch.nn.functional

    res = {}
    res["normjit.rmsnorm"] = host_us(lambda: normjit.rmsnorm(x, w))
    res["normjit.rmsnorm out="] = host_us(lambda: normjit.rmsnorm(x, w, out=o))
    res["normjit.fused_add_rmsnorm"] = host_us(lambda: normjit.fused_add_rmsnorm(x, r, w))
    with torch.inference_mode():
        xi, wi, oi = x.clone(), w.clone(), o.clone()
        res["inference_mode rmsnorm out="] = host_us(lambda: normjit.rmsnorm(xi, wi, out=oi))
        res["inference_mode torch rms_norm"] = host_us(lambda: F.rms_norm(xi, (a.hidden,), wi, eps))
    op = torch.ops.normjit.rmsnorm.default
    res["op via dispatcher out="] = host_us(lambda: op(o, x, w, eps, None))
    res["eager fast path out="] = host_us(lambda: _ops.eager_rms("rmsnorm", o, x, w, eps, None))
    res["binding w/o dispatcher"] = host_us(lambda: _ops._rms("rmsnorm", o, x, w, eps, None))
    res["C ABI call (pre-packed)"] = host_us(lambda: raw(s.p0, s.p1, eps, s.p2, stream, -1))
    res["torch.empty_like"] = host_us(lambda: torch.empty_like(x))
    res["torch rms_norm"] = host_us(lambda: F.rms_norm(x, (a.hidden,), w, eps))

    ratio = res["normjit.rmsnorm"] / res["torch rms_norm"]
    print(
        f"normjit overhead ({a.dtype} [{a.rows}, {a.hidden}], torch {torch.__version__}, host us/call): "
        f"rmsnorm {res['normjit.rmsnorm']:.1f}, out= {res['normjit.rmsnorm out=']:.1f}, "
        f"fused_add {res['normjit.fused_add_rmsnorm']:.1f}, "
        f"inference_mode out= {res['inference_mode rmsnorm out=']:.1f} | "
        f"torch F.rms_norm {res['torch rms_norm']:.1f} (inference_mode "
        f"{res['inference_mode torch rms_norm']:.1f}) | normjit/torch {ratio:.2f}x | "
        f"op via dispatcher out= {res['op via dispatcher out=']:.1f} | "
        f"of which: binding w/o dispatcher {res['binding w/o dispatcher']:.1f}, "
        f"C ABI call {res['C ABI call (pre-packed)']:.1f}"
    )
    if a.verbose:
        for k, v in res.items():
            print(f"  {k:32s} {v:8.2f} us")


if __name__ == "__main__":
    main()
