#!/usr/bin/env python3
"""Side-by-side device time of normjit and its peers, one process, one method (issue 4).

Candidates: normjit (the Python package), PyTorch eager, torch.compile (default and
max-autotune-no-cudagraphs), Liger-Kernel and FlashInfer when importable (carry their wheels to
the GPU machine; a candidate that cannot be imported or fails its check is reported, not timed).

Method, the same for every candidate (the one of ../shared/bench/peer-baseline-h200.md): outputs
checked against a float64 reference first; before each sample the L2 is evicted by a read-only
pass over 256 MiB; inputs rotate over >= 240 MiB of sets so they come from HBM; a
torch.cuda._sleep primer queues the call ahead of the GPU so host overhead is excluded; CUDA
events around one call; median of the samples. Bytes: rmsnorm 2*T*H*2 + 2H, fused add 4*T*H*2 + 2H.

usage (GPU machine, repo root, after scripts/gpu_suite.sh built build-gpu/):
  NORMJIT_LIBRARY=$PWD/build-gpu/libnormjit.so PYTHONPATH=$PWD/python \
    python3 scripts/peers_bench.py [--ops rmsnorm,fused_add_rmsnorm] [--tokens 1,128,2048,32768] \
    [--hidden 2048,4096,8192,16384] [--reps 100] [--no-compile]

Status: written without a GPU at hand (the session's device time was spent); its first run is
part of the performance issue.
"""
import argparse
import math
import statistics
import sys

import torch
import torch.nn.functional as F

DT = torch.bfloat16
EPS = 1e-6


def candidates(op, use_compile):
    """name -> callable(x, r, w, y) for the op; each writes its result where the peer would."""
    out = {}
    import normjit

    if op == "rmsnorm":
        out["normjit"] = lambda x, r, w, y: normjit.rmsnorm(x, w, EPS, out=y)
        out["eager"] = lambda x, r, w, y: y.copy_(F.rms_norm(x, (x.shape[-1],), w, EPS))
    else:
        out["normjit"] = lambda x, r, w, y: normjit.fused_add_rmsnorm(x, r, w, EPS)

        def eager_fused(x, r, w, y):
            r.add_(x)
            x.copy_(F.rms_norm(r, (x.shape[-1],), w, EPS))

        out["eager"] = eager_fused
    if use_compile:
        for mode in ("default", "max-autotune-no-cudagraphs"):
            fn = out["eager"]
            out[f"compile-{mode.split('-')[0]}"] = torch.compile(fn, mode=mode, dynamic=False)
    try:
        from liger_kernel.ops.rms_norm import rms_norm_forward

        if op == "rmsnorm":
            out["liger"] = lambda x, r, w, y: y.copy_(rms_norm_forward(x, w, EPS, 0.0, "llama", None)[0])
    except Exception as e:  # noqa: BLE001 - report and go on
        print(f"liger: not available ({e})", file=sys.stderr)
    try:
        import flashinfer

        if op == "rmsnorm":
            out["flashinfer"] = lambda x, r, w, y: flashinfer.norm.rmsnorm(x, w, EPS, out=y, enable_pdl=True)
        else:
            out["flashinfer"] = lambda x, r, w, y: flashinfer.norm.fused_add_rmsnorm(x, r, w, EPS, enable_pdl=True)
    except Exception as e:  # noqa: BLE001
        print(f"flashinfer: not available ({e})", file=sys.stderr)
    return out


def reference(op, x, r, w):
    if op == "rmsnorm":
        v = x.double()
    else:
        v = (x.float() + r.float()).double()
    rstd = torch.rsqrt(v.pow(2).mean(-1, keepdim=True) + EPS)
    return (v * rstd * w.double()).to(DT)


def check(op, fn, T, H):
    x = torch.randn(T, H, device="cuda", dtype=DT)
    r = torch.randn_like(x)
    w = torch.rand(H, device="cuda", dtype=DT) + 1
    y = torch.full_like(x, float("nan"))
    ref = reference(op, x, r, w)
    fn(x, r, w, y)
    torch.cuda.synchronize()
    got = y if op == "rmsnorm" else x
    err = ((got.double() - ref.double()).norm() / ref.double().norm()).item()
    return math.isfinite(err) and err < 1e-2, err


def time_op(op, fn, T, H, reps, flush):
    es = 2
    per_set = T * H * es * 2
    sets = max(2, min(reps + 5, (240 << 20) // per_set + 1, (8 << 30) // per_set + 1))
    xs = [torch.randn(T, H, device="cuda", dtype=DT) for _ in range(sets)]
    rs = [torch.randn(T, H, device="cuda", dtype=DT) for _ in range(sets)]
    ys = [torch.empty(T, H, device="cuda", dtype=DT) for _ in range(sets)]
    w = torch.rand(H, device="cuda", dtype=DT) + 1
    for i in range(3):
        fn(xs[i % sets], rs[i % sets], w, ys[i % sets])
    torch.cuda.synchronize()
    # Host time per call, to size the primer.
    import time

    t0 = time.perf_counter()
    for i in range(10):
        fn(xs[i % sets], rs[i % sets], w, ys[i % sets])
    torch.cuda.synchronize()
    host_us = (time.perf_counter() - t0) / 10 * 1e6
    cycles = int(max(100.0, 3 * host_us + 50) * 1980)  # _sleep counts SM cycles (1.98 GHz)
    times = []
    for i in range(reps):
        k = i % sets
        flush.sum()  # read-only L2 eviction
        torch.cuda._sleep(cycles)
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn(xs[k], rs[k], w, ys[k])
        e.record()
        times.append((s, e))
    torch.cuda.synchronize()
    us = [s.elapsed_time(e) * 1000 for s, e in times]
    return statistics.median(us)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default="rmsnorm,fused_add_rmsnorm")
    ap.add_argument("--tokens", default="1,8,32,128,512,2048,8192,32768")
    ap.add_argument("--hidden", default="2048,4096,8192,16384")
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--no-compile", action="store_true")
    a = ap.parse_args()
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda").fill_(1)
    src = torch.empty(1 << 30, dtype=torch.uint8, device="cuda").fill_(1)
    dst = torch.empty_like(src)
    copy = []
    for _ in range(10):
        flush.sum()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        dst.copy_(src)
        e.record()
        torch.cuda.synchronize()
        copy.append(s.elapsed_time(e) / 1000)
    copy_gbs = 2 * src.numel() / statistics.median(copy) / 1e9
    del src, dst
    print(f"copy ceiling (1 GiB, read+write): {copy_gbs:.0f} GB/s; torch {torch.__version__}, "
          f"{torch.cuda.get_device_name()}")
    ratios = []
    for op in a.ops.split(","):
        cands = candidates(op, not a.no_compile)
        print(f"\n### {op}\n")
        print("| tokens | hidden | " + " | ".join(f"{n} µs" for n in cands) + " | normjit / best peer | normjit % copy |")
        print("|---:|---:|" + "---:|" * (len(cands) + 2))
        for H in map(int, a.hidden.split(",")):
            for T in map(int, a.tokens.split(",")):
                row = {}
                for name, fn in cands.items():
                    try:
                        ok, err = check(op, fn, min(T, 256), H)
                        row[name] = time_op(op, fn, T, H, a.reps, flush) if ok else float("nan")
                        if not ok:
                            print(f"{name} {op} {T}x{H}: check failed (rel err {err:.2e})", file=sys.stderr)
                    except Exception as e:  # noqa: BLE001 - a peer failing must not stop the table
                        print(f"{name} {op} {T}x{H}: {e}", file=sys.stderr)
                        row[name] = float("nan")
                peers = [v for k, v in row.items() if k != "normjit" and math.isfinite(v)]
                best = min(peers) if peers else float("nan")
                ratio = row["normjit"] / best if peers else float("nan")
                if math.isfinite(ratio):
                    ratios.append(ratio)
                nbytes = T * H * 2 * (2 if op == "rmsnorm" else 4) + 2 * H
                pct = 100 * nbytes / (row["normjit"] * 1e-6) / 1e9 / copy_gbs
                cells = " | ".join(f"{row[n]:.2f}" for n in cands)
                print(f"| {T} | {H} | {cells} | {ratio:.3f} | {pct:.1f} % |")
    if ratios:
        g = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"\ngeometric mean normjit / fastest peer over {len(ratios)} shapes: {g:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
