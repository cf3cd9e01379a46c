#!/usr/bin/env python3
"""Side-by-side device time of normjit and its peers: one process, one method (issue 4).

Candidates: normjit (the Python package), PyTorch eager, torch.compile (default mode, and
max-autotune-no-cudagraphs from --autotune-min-tokens up), Liger-Kernel and FlashInfer (its
header-only kernels through scripts/peers/flashinfer_shim.cu, built by scripts/peers_bench.sh).
A candidate that cannot be loaded is reported and left out; one that fails its check is not timed.

Method, the same for every candidate (that of ../shared/bench/peer-baseline-h200.md):
  * check first, at the timed shape: fresh normal inputs, NaN-poisoned outputs, the first and
    last 128 rows against a float64 reference (norm-relative error < 1e-2);
  * before each sample the L2 is evicted by a read-only pass over 256 MiB, and the inputs rotate
    over >= 240 MiB of sets, so they come from HBM;
  * a torch.cuda._sleep primer queues the call ahead of the GPU, so host time is excluded;
  * CUDA events around one call, median of --reps samples, the candidates sampled round-robin on
    the same input sets (time_all); normjit against the fastest peer also round by round, whose
    median ratio gets a bootstrap interval (targets.paired_ratio_interval): a shape behind is
    marked ✗ where that interval lies above 1, ✗? where it does not (within noise);
  * references in the same loop, not peers: a torch copy moving the op's bytes (ref-copy) and an
    empty kernel (ref-launch).
Bytes that must move: rmsnorm 2*R*H*2 + 2H, fused add 4*R*H*2 + 2H (R rows, bf16).

usage (GPU machine, repo root; scripts/peers_bench.sh builds what this needs):
  python3 scripts/peers_bench.py [--ops rmsnorm,fused_add_rmsnorm,gemma_rmsnorm,...]
      [--tokens 1,8,...] [--hidden 2048,...] [--heads 1x4608x48x128,8192x32x128]
      [--reps 100] [--autotune-min-tokens 2048] [--csv FILE]
"""
import argparse
import ctypes
import importlib
import importlib.util
import math
import os
import statistics
import sys
import time
import types

import torch
import torch.nn.functional as F

# The bytes an op must move and the geometric mean, shared with the CSV reader (no torch there).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from targets import geomean, moved_bytes, paired_ratio_interval  # noqa: E402

DT = torch.bfloat16
EPS = 1e-6
SM_HZ = 1.98e9  # torch.cuda._sleep counts SM cycles; the H200 runs at 1980 MHz under load

OPS = ("rmsnorm", "fused_add_rmsnorm", "gemma_rmsnorm", "gemma_fused_add_rmsnorm", "rmsnorm_3d")


def fused(op):
    return "fused" in op


def gemma(op):
    return op.startswith("gemma")


# ---- peers that need loading ------------------------------------------------------------------
_LIGER = None


def load_liger():
    """Liger-Kernel's norm ops without its package __init__ (which imports every op and, through
    them, optional dependencies): stub packages point at the installed files. Loaded once."""
    global _LIGER
    if _LIGER is None:
        spec = importlib.util.find_spec("liger_kernel")
        if spec is None:
            raise ImportError("liger_kernel is not installed")
        root = list(spec.submodule_search_locations)[0]
        for name, path in (("liger_kernel", root), ("liger_kernel.ops", os.path.join(root, "ops"))):
            m = types.ModuleType(name)
            m.__path__ = [path]
            sys.modules[name] = m
        rms = importlib.import_module("liger_kernel.ops.rms_norm")
        fadd = importlib.import_module("liger_kernel.ops.fused_add_rms_norm")
        _LIGER = (rms.rms_norm_forward, fadd.fused_add_rms_norm_forward)
    return _LIGER


_FLASHINFER = None


def load_flashinfer():
    """The FlashInfer shim (ctypes), loaded once."""
    global _FLASHINFER
    if _FLASHINFER is None:
        path = os.environ.get("FLASHINFER_SHIM", "")
        if not path or not os.path.exists(path):
            raise ImportError("FLASHINFER_SHIM does not name the built shim (scripts/peers_bench.sh builds it)")
        lib = ctypes.CDLL(path)
        u, f, i, p = ctypes.c_uint, ctypes.c_float, ctypes.c_int, ctypes.c_void_p
        lib.fi_rmsnorm.argtypes = [p, p, p, u, u, u, u, f, i, i, p]
        lib.fi_fused_add_rmsnorm.argtypes = [p, p, p, u, u, u, u, f, i, i, p]
        _FLASHINFER = lib
    return _FLASHINFER


def candidates(op, T, use_compile, autotune_min_tokens, normjit_nopdl=False, normjit_alloc=False):
    """name -> fn(x, r, w, y) returning the normalized output and, for fused ops, the new residual.
    Gemma peers without an offset argument get (1 + w) precomputed by the caller (their best case);
    normjit and FlashInfer get w and add the 1 themselves."""
    import normjit

    c = {}
    g = gemma(op)
    if fused(op):
        nj = normjit.gemma_fused_add_rmsnorm if g else normjit.fused_add_rmsnorm

        def nj_fused(x, r, w, y, w1):
            nj(x, r, w, EPS)
            return x, r

        c["normjit"] = nj_fused
        if normjit_nopdl:
            def nj_fused_nopdl(x, r, w, y, w1):
                nj(x, r, w, EPS, enable_pdl=False)
                return x, r

            c["normjit-nopdl"] = nj_fused_nopdl

        def eager(x, r, w, y, w1):  # two kernels: in-place add, then the norm out of place
            r.add_(x)
            return F.rms_norm(r, (x.shape[-1],), w1, EPS), r

        def eager_inplace(x, r, w, y, w1):  # what torch.compile fuses into one in-place kernel
            r.add_(x)
            x.copy_(F.rms_norm(r, (x.shape[-1],), w1, EPS))
            return x, r

        c["eager"] = eager
        compile_src = eager_inplace
    else:
        nj = normjit.gemma_rmsnorm if g else normjit.rmsnorm
        c["normjit"] = lambda x, r, w, y, w1: (nj(x, w, EPS, out=y),)
        if normjit_nopdl:
            c["normjit-nopdl"] = lambda x, r, w, y, w1: (nj(x, w, EPS, out=y, enable_pdl=False),)
        if normjit_alloc:  # the output from the caching allocator on every call, as the peers' are
            c["normjit-alloc"] = lambda x, r, w, y, w1: (nj(x, w, EPS),)
        c["eager"] = lambda x, r, w, y, w1: (F.rms_norm(x, (x.shape[-1],), w1, EPS),)
        compile_src = lambda x, r, w, y, w1: (F.rms_norm(x, (x.shape[-1],), w1, EPS),)  # noqa: E731
    if use_compile:
        c["compile"] = torch.compile(compile_src, dynamic=False)
        if T >= autotune_min_tokens:
            c["compile-maxat"] = torch.compile(compile_src, mode="max-autotune-no-cudagraphs", dynamic=False)
    try:
        rms_fwd, fadd_fwd = load_liger()
        off, mode = (1.0, "gemma") if g else (0.0, "llama")
        if fused(op):
            c["liger"] = lambda x, r, w, y, w1: fadd_fwd(x, r, w, EPS, off, mode)[:2]
        else:
            c["liger"] = lambda x, r, w, y, w1: (rms_fwd(x, w, EPS, off, mode, None)[0],)
    except Exception as e:  # noqa: BLE001 - report and go on
        print(f"liger: not available ({e})", file=sys.stderr)
    try:
        fi = load_flashinfer()
        gi = 1 if g else 0

        def stream():
            return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

        if fused(op):
            def fi_fused(x, r, w, y, w1):
                H = x.shape[-1]
                x2, r2 = x.view(-1, H), r.view(-1, H)
                rc = fi.fi_fused_add_rmsnorm(x2.data_ptr(), r2.data_ptr(), w.data_ptr(), x2.shape[0], H,
                                             x2.stride(0), r2.stride(0), EPS, gi, 1, stream())
                if rc:
                    raise RuntimeError(f"FlashInfer returned cudaError {rc}")
                return x, r

            c["flashinfer"] = fi_fused
        else:
            def fi_rms(x, r, w, y, w1):
                H = x.shape[-1]
                x2, y2 = x.view(-1, H), y.view(-1, H)
                rc = fi.fi_rmsnorm(x2.data_ptr(), w.data_ptr(), y2.data_ptr(), x2.shape[0], H, x2.stride(0),
                                   y2.stride(0), EPS, gi, 1, stream())
                if rc:
                    raise RuntimeError(f"FlashInfer returned cudaError {rc}")
                return (y,)

            c["flashinfer"] = fi_rms
    except Exception as e:  # noqa: BLE001
        print(f"flashinfer: not available ({e})", file=sys.stderr)
    return c


# ---- check and timing -------------------------------------------------------------------------
class HeadsView(tuple):
    """A per-head shape (tokens, heads, head_dim) whose input is q (or k) viewed in a fused qkv
    tensor of `qkv` heads a token: strided rows, as a model's q/k norm reads them."""

    def __new__(cls, dims, qkv):
        v = super().__new__(cls, dims)
        v.qkv = qkv
        return v


def shape_label(shape):
    qkv = getattr(shape, "qkv", None)
    return "x".join(map(str, shape)) + (f"/{qkv}" if qkv else "")


def make_inputs(shape, device="cuda"):
    qkv = getattr(shape, "qkv", None)
    if qkv:  # the first heads of a [tokens, qkv, head_dim] tensor
        T, N, D = shape
        x = torch.randn((T, qkv, D), device=device, dtype=DT)[:, :N]
        r = torch.randn((T, qkv, D), device=device, dtype=DT)[:, :N]
        return x, r
    x = torch.randn(shape, device=device, dtype=DT)
    r = torch.randn(shape, device=device, dtype=DT)
    return x, r


def make_weight(op, H):
    w = (torch.rand(H, device="cuda") * 0.5 + 1.0).to(DT)
    # What the peers without a weight offset multiply by: (1 + w) for the gemma ops, else w.
    w1 = (w.float() + 1.0).to(DT) if gemma(op) else w
    return w, w1


def rel_err(got, ref):
    got, ref = got.double(), ref.double()
    if not torch.isfinite(got).all():
        return float("inf")
    return ((got - ref).norm() / ref.norm()).item()


def check(op, fn, shape, w, w1):
    H = shape[-1]
    x, r = make_inputs(shape)
    x0, r0 = x.clone(), r.clone()
    y = torch.full_like(x, float("nan"))
    outs = fn(x, r, w, y, w1)
    torch.cuda.synchronize()
    rows = x0.numel() // H
    pick = torch.cat([torch.arange(0, min(rows, 128)), torch.arange(max(0, rows - 128), rows)]).cuda()
    sel = lambda t: t.reshape(-1, H)[pick].double()  # noqa: E731
    v = sel(x0) + sel(r0) if fused(op) else sel(x0)
    wd = w.double() + (1.0 if gemma(op) else 0.0)
    ref = v * torch.rsqrt(v.pow(2).mean(-1, keepdim=True) + EPS) * wd
    errs = [rel_err(sel(outs[0]), ref)]
    if fused(op):
        errs.append(rel_err(sel(outs[1]), v))
    err = max(errs)
    return err < 1e-2, err


def time_all(cands, op, shape, w, w1, reps, flush, nbytes_set, clone_ref=False):
    """Device times (µs) of every candidate, one per round, sampled round-robin: sample i runs each
    candidate once, starting at a rotating position, on the same input set i % sets. So every
    candidate sees the same addresses, the same clock and thermal state, and the same neighbours;
    a per-candidate loop measured drift and allocation luck of +-0.3 µs at small shapes.
    Two references run the same way, and are not peers: `ref-copy`, one torch copy moving the
    op's bytes (the bandwidth floor of a single kernel), and `ref-launch`, an empty kernel (the
    launch and event floor)."""
    sets = max(2, min(reps + 5, (240 << 20) // nbytes_set + 1, (8 << 30) // nbytes_set + 1))
    xs = [make_inputs(shape) for _ in range(sets)]
    ys = [torch.empty(tuple(shape), device="cuda", dtype=DT) for _ in range(sets)]
    # The copy reference moves what the op moves: x -> y for rmsnorm, x and r -> (y, r') for the
    # fused add, as one copy of twice the rows.
    n = math.prod(shape) * (2 if fused(op) else 1)
    cs = [(torch.randn(n, device="cuda", dtype=DT), torch.empty(n, device="cuda", dtype=DT)) for _ in range(sets)]
    calls = {name: (lambda k, fn=fn: fn(xs[k][0], xs[k][1], w, ys[k], w1)) for name, fn in cands.items()}
    calls["ref-copy"] = lambda k: cs[k][1].copy_(cs[k][0])
    if clone_ref:  # the same copy into a tensor from the caching allocator on every call
        calls["ref-clone"] = lambda k: cs[k][0].clone()
    calls["ref-launch"] = lambda k: torch.cuda._sleep(0)
    names = list(calls)
    host_us = 0.0
    for name in names:
        for i in range(3):
            calls[name](i % sets)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for i in range(10):
            calls[name](i % sets)
        torch.cuda.synchronize()
        host_us = max(host_us, (time.perf_counter() - t0) / 10 * 1e6)
    cycles = int(max(100.0, 3 * host_us + 50) * 1e-6 * SM_HZ)
    events = {name: [] for name in names}
    for i in range(reps):
        k = i % sets
        for j in range(len(names)):
            name = names[(i + j) % len(names)]
            flush.sum()  # read-only L2 eviction
            torch.cuda._sleep(cycles)
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            calls[name](k)
            e.record()
            events[name].append((s, e))
    torch.cuda.synchronize()
    return {name: [s.elapsed_time(e) * 1000 for s, e in ev] for name, ev in events.items()}


def copy_ceiling():
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda").fill_(1)
    src = torch.empty(1 << 30, dtype=torch.uint8, device="cuda").fill_(1)
    dst = torch.empty_like(src)
    us = []
    for _ in range(20):
        flush.sum()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        dst.copy_(src)
        e.record()
        torch.cuda.synchronize()
        us.append(s.elapsed_time(e) * 1000)
    return 2 * src.numel() / (statistics.median(us) * 1e-6) / 1e9, flush


def shapes_for(op, a):
    if op == "rmsnorm_3d":
        for spec in a.heads.split(","):
            dims, _, qkv = spec.partition("/")
            dims = tuple(int(v) for v in dims.split("x"))
            yield HeadsView(dims, int(qkv)) if qkv else dims
    else:
        for H in map(int, a.hidden.split(",")):
            for T in map(int, a.tokens.split(",")):
                yield (T, H)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default="rmsnorm,fused_add_rmsnorm")
    ap.add_argument("--tokens", default="1,8,32,128,512,2048,8192,32768")
    ap.add_argument("--hidden", default="2048,4096,8192,16384")
    ap.add_argument("--heads", default="4608x48x128,8192x32x128,8192x8x128,4096x32x64,2048x16x256",
                    help="3-D shapes for rmsnorm_3d, TOKENSxHEADSxHEAD_DIM ([1, 4608, 48, 128] is 4608x48x128); "
                         "/QKV after one makes its input the first HEADS of a [TOKENS, QKV, HEAD_DIM] tensor "
                         "(q of a fused qkv tensor: strided rows; 8192x32x128/48)")
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--autotune-min-tokens", type=int, default=2048,
                    help="run torch.compile max-autotune at this many rows and above (3-6 s per shape)")
    ap.add_argument("--normjit-nopdl", action="store_true",
                    help="also time normjit launched without the PDL attribute (a column, not a peer)")
    ap.add_argument("--normjit-alloc", action="store_true",
                    help="also time normjit (rmsnorm ops) with its output allocated on every call, as the peers' "
                         "outputs are, and a copy into a fresh tensor (ref-clone): columns, not peers")
    ap.add_argument("--csv", default="")
    a = ap.parse_args()
    for op in a.ops.split(","):
        if op not in OPS:
            sys.exit(f"--ops: unknown op {op!r}; expected some of {', '.join(OPS)}")
    # One specialization per shape: lift dynamo's recompile limit so no shape falls back to eager.
    for name in ("recompile_limit", "cache_size_limit", "accumulated_recompile_limit", "accumulated_cache_size_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, 1 << 20)
    copy_gbs, flush = copy_ceiling()
    print(f"copy ceiling (1 GiB, read+write): {copy_gbs:.0f} GB/s; torch {torch.__version__}, "
          f"{torch.cuda.get_device_name()}, {time.strftime('%Y-%m-%d')}")
    csv = open(a.csv, "w") if a.csv else None
    if csv:
        # ratio_*: normjit's row only, normjit against the fastest peer round by round
        # (targets.paired_ratio_interval): the median and its interval.
        csv.write("op,shape,candidate,us,gbs,pct_copy,ratio_paired,ratio_lo,ratio_hi\n")
    ratios, floors, beyond = {}, {}, {}
    for op in a.ops.split(","):
        print(f"\n### {op}\n")
        header = None
        alloc = a.normjit_alloc and not fused(op)  # normjit-alloc and ref-clone: rmsnorm ops only
        for shape in shapes_for(op, a):
            H, rows = shape[-1], math.prod(shape[:-1])
            cands = candidates(op, rows, not a.no_compile, a.autotune_min_tokens, a.normjit_nopdl, alloc)
            names = ["normjit", "eager", "compile", "compile-maxat", "liger", "flashinfer"]
            refs = ["ref-copy", "ref-launch"]
            if header is None:
                extra = (["normjit-nopdl"] if a.normjit_nopdl else []) + (["normjit-alloc", "ref-clone"] if alloc else [])
                header = names + extra + refs
                print("| shape | " + " | ".join(f"{n} µs" for n in header) +
                      " | best peer | normjit / best | copy / best | normjit % copy |")
                print("|---|" + "---:|" * (len(header) + 4))
            w, w1 = make_weight(op, H)
            nbytes = moved_bytes(op, "x".join(map(str, shape)))
            passed = {}
            for name, fn in cands.items():
                try:
                    ok, err = check(op, fn, shape, w, w1)
                    if ok:
                        passed[name] = fn
                    else:
                        print(f"{name} {op} {shape}: check failed (rel err {err:.2e}); not timed", file=sys.stderr)
                except Exception as e:  # noqa: BLE001 - one peer failing must not stop the table
                    print(f"{name} {op} {shape}: {type(e).__name__}: {e}", file=sys.stderr)
            try:
                samples = time_all(passed, op, shape, w, w1, a.reps, flush, nbytes, clone_ref=alloc)
            except Exception as e:  # noqa: BLE001 - name the failing shape, go on with the next
                print(f"{op} {shape}: timing failed: {type(e).__name__}: {e}", file=sys.stderr)
                continue
            row = {name: statistics.median(us) for name, us in samples.items()}
            peers = {k: v for k, v in row.items() if k in names and k != "normjit"}
            best = min(peers, key=peers.get) if peers else None
            ratio = row["normjit"] / peers[best] if best and "normjit" in row else float("nan")
            paired = paired_ratio_interval(samples["normjit"], samples[best]) if math.isfinite(ratio) else None
            if csv:
                for name, us in row.items():
                    gbs = nbytes / (us * 1e-6) / 1e9
                    extra = ",".join(f"{v:.4f}" for v in paired) if name == "normjit" and paired else ",,"
                    csv.write(f"{op},{shape_label(shape)},{name},{us:.3f},{gbs:.0f},{100 * gbs / copy_gbs:.1f},"
                              f"{extra}\n")
            floor = row["ref-copy"] / peers[best] if best else float("nan")
            if math.isfinite(ratio):
                ratios.setdefault(op, []).append(ratio)
                floors.setdefault(op, []).append(floor)
                beyond.setdefault(op, []).append(ratio > 1 and paired[1] > 1)
            pct = 100 * nbytes / (row.get("normjit", float("nan")) * 1e-6) / 1e9 / copy_gbs
            cells = " | ".join(f"{row[n]:.2f}" if n in row else "–" for n in header)
            # Behind: ✗ where beyond noise (the interval of the per-round ratio above 1), else ✗?,
            # with that interval.
            mark = ""
            if ratio > 1:
                mark = f" {'✗' if paired[1] > 1 else '✗?'} ({paired[1]:.3f}–{paired[2]:.3f})"
            print(f"| {shape_label(shape).replace('x', '×')} | {cells} | {best} | {ratio:.3f}{mark} | {floor:.3f} | {pct:.1f} % |",
                  flush=True)
    print()
    allr, allf = [], []
    for op, rs in ratios.items():
        allr += rs
        allf += floors[op]
        print(f"{op}: geomean normjit / fastest peer {geomean(rs):.3f} over {len(rs)} shapes; "
              f"worst {max(rs):.3f}; shapes behind: {sum(r > 1 for r in rs)} "
              f"({sum(beyond[op])} beyond noise); "
              f"same-bytes copy / fastest peer {geomean(floors[op]):.3f}")
    if allr:
        print(f"all: geomean normjit / fastest peer {geomean(allr):.3f} over {len(allr)} shapes; "
              f"same-bytes copy / fastest peer {geomean(allf):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
