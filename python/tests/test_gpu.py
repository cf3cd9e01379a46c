"""GPU tests of the torch binding: every op against a float64 reference (spec README section 8:
rtol = atol = 1e-3 for fp16, plus the 'step' criterion: within one fp16/bf16 step of the
reference rounded to the dtype), in-place semantics, strided and 3-D per-head views, fp32
weights, enable_pdl, streams, torch.compile(fullgraph=True), CUDA graphs, validation errors.

Skipped (with the reason) without torch, without a CUDA device, or when libnormjit cannot be
loaded (set NORMJIT_LIBRARY=/path/to/libnormjit.so)."""

import threading
import time
import zlib

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

from _support import library_error  # noqa: E402

import normjit  # noqa: E402

_LIB_ERROR = library_error()
pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device visible to torch"),
    pytest.mark.skipif(bool(_LIB_ERROR), reason=f"libnormjit not loadable: {_LIB_ERROR}"),
]

F16, BF16, F32 = torch.float16, torch.bfloat16, torch.float32
EPS = 1e-6
TOL = {F16: (1e-3, 1e-3), BF16: (1e-2, 1e-2), F32: (1e-5, 1e-5)}
DTYPES = [(F16, F16), (BF16, BF16), (F32, F32), (F16, F32), (BF16, F32)]
DT_IDS = ["f16", "bf16", "f32", "f16-w32", "bf16-w32"]


# ---- helpers -----------------------------------------------------------------------------------
@pytest.fixture
def gen(request):
    """A CUDA generator seeded from the test id: fresh data per test, reproducible per test."""
    seed = zlib.crc32(request.node.nodeid.encode())
    return torch.Generator(device="cuda").manual_seed(seed)


def randn(shape, dtype, gen, scale=1.0):
    t = torch.randn(shape, generator=gen, device="cuda", dtype=F32) * scale
    return t.to(dtype)


def ref_rmsnorm(x, w, eps=EPS, gemma=False):
    """float64 reference of spec 1.1/1.3 (the Gemma offset is added to float(w) in fp32)."""
    w64 = (w.float() + 1.0).double() if gemma else w.double()
    x64 = x.double()
    rstd = torch.rsqrt(x64.square().mean(-1, keepdim=True) + eps)
    return x64 * rstd * w64


def _ordered(t):
    """fp16/bf16 bits as integers ordered like the values (one step = 1)."""
    i = t.view(torch.int16).to(torch.int32)
    return torch.where(i < 0, -(i & 0x7FFF), i)


def assert_matches(out, ref64):
    dtype = out.dtype
    rtol, atol = TOL[dtype]
    if dtype == F32:
        torch.testing.assert_close(out.double(), ref64, rtol=rtol, atol=atol)
        return
    expected = ref64.to(dtype)
    torch.testing.assert_close(out, expected, rtol=rtol, atol=atol)
    steps = (_ordered(out) - _ordered(expected)).abs().max().item() if out.numel() else 0
    assert steps <= 1, f"{steps} steps from the reference rounded to {dtype}"


def make_input(shape, dtype, gen, layout):
    """`layout`: contiguous, or strided = the first half of a buffer twice as wide."""
    if layout == "contiguous":
        return randn(shape, dtype, gen), None
    full = randn((*shape[:-1], 2 * shape[-1]), dtype, gen)
    return full[..., : shape[-1]], full


# ---- rmsnorm / gemma_rmsnorm, 2-D --------------------------------------------------------------
SHAPES_2D = [(1, 128), (19, 111), (99, 1024), (128, 4096), (7, 8192), (3, 16384)]


@pytest.mark.parametrize("layout", ["contiguous", "strided", "strided-out"])
@pytest.mark.parametrize("dtype,wdtype", DTYPES, ids=DT_IDS)
@pytest.mark.parametrize("shape", SHAPES_2D, ids=[f"{m}x{h}" for m, h in SHAPES_2D])
@pytest.mark.parametrize("gemma", [False, True], ids=["rmsnorm", "gemma"])
def test_rmsnorm_2d(gemma, shape, dtype, wdtype, layout, gen):
    fn = normjit.gemma_rmsnorm if gemma else normjit.rmsnorm
    x, full = make_input(shape, dtype, gen, "contiguous" if layout == "strided-out" else layout)
    w = randn(shape[-1], wdtype, gen)
    x_before = x.clone()
    if layout == "strided-out":
        obuf = torch.full((shape[0], 2 * shape[-1]), 7.0, device="cuda", dtype=dtype)
        out = obuf[:, shape[-1]:]
        y = fn(x, w, out=out)
        assert y is out
        assert torch.all(obuf[:, : shape[-1]] == 7.0)  # only the view was written
    else:
        y = fn(x, w)
        assert y.shape == x.shape and y.dtype == dtype and y.is_contiguous()
    assert torch.equal(x, x_before)
    assert_matches(y, ref_rmsnorm(x, w, gemma=gemma))


# ---- rmsnorm / gemma_rmsnorm, 3-D per head -----------------------------------------------------
SHAPES_3D = [(1, 4, 64), (19, 7, 128), (99, 16, 256), (3, 8, 512)]


@pytest.mark.parametrize("layout", ["contiguous", "heads-view", "strided-out"])
@pytest.mark.parametrize("dtype,wdtype", [(F16, F16), (BF16, BF16), (BF16, F32), (F32, F32)],
                         ids=["f16", "bf16", "bf16-w32", "f32"])
@pytest.mark.parametrize("shape", SHAPES_3D, ids=[f"{b}x{n}x{d}" for b, n, d in SHAPES_3D])
@pytest.mark.parametrize("gemma", [False, True], ids=["rmsnorm", "gemma"])
def test_rmsnorm_3d(gemma, shape, dtype, wdtype, layout, gen):
    fn = normjit.gemma_rmsnorm if gemma else normjit.rmsnorm
    b, n, d = shape
    if layout == "heads-view":  # upstream's [B, 2N, D][:, :N] view
        x = randn((b, 2 * n, d), dtype, gen)[:, :n]
    else:
        x = randn(shape, dtype, gen)
    w = randn(d, wdtype, gen)
    if layout == "strided-out":
        out = torch.empty((b, 2 * n, d), device="cuda", dtype=dtype)[:, n:]
        assert fn(x, w, EPS, out) is out
        y = out
    else:
        y = fn(x, w)
    assert_matches(y, ref_rmsnorm(x, w, gemma=gemma))


@pytest.mark.parametrize("gemma", [False, True], ids=["rmsnorm", "gemma"])
@pytest.mark.parametrize("shape", [(33, 2048), (5, 6, 128), (5, 6, 128, "view")],
                         ids=["2d", "3d", "3d-view"])
def test_rmsnorm_in_place(gemma, shape, gen):
    fn = normjit.gemma_rmsnorm if gemma else normjit.rmsnorm
    if shape[-1] == "view":
        b, n, d = shape[:3]
        full = randn((b, 2 * n, d), BF16, gen)
        x = full[:, :n]
        other = full[:, n:].clone()
    else:
        full, x, other = None, randn(shape, BF16, gen), None
    w = randn(x.shape[-1], BF16, gen)
    ref = ref_rmsnorm(x, w, gemma=gemma)
    y = fn(x, w, out=x)
    assert y is x
    assert_matches(x, ref)
    if full is not None:
        assert torch.equal(full[:, x.shape[1]:], other)


def test_rmsnorm_out_is_returned_and_input_untouched(gen):
    x = randn((16, 512), F16, gen)
    w = randn(512, F16, gen)
    out = torch.empty_like(x)
    x0 = x.clone()
    assert normjit.rmsnorm(x, w, out=out) is out
    assert normjit.gemma_rmsnorm(x, w, 1e-5, out) is out
    assert torch.equal(x, x0)
    assert_matches(out, ref_rmsnorm(x, w, eps=1e-5, gemma=True))


# ---- fused_add_rmsnorm / gemma_fused_add_rmsnorm -----------------------------------------------
@pytest.mark.parametrize("layout", ["contiguous", "strided", "strided-input-only"])
@pytest.mark.parametrize("dtype,wdtype", DTYPES, ids=DT_IDS)
@pytest.mark.parametrize("shape", SHAPES_2D, ids=[f"{m}x{h}" for m, h in SHAPES_2D])
@pytest.mark.parametrize("gemma", [False, True], ids=["fused_add", "gemma"])
def test_fused_add_rmsnorm(gemma, shape, dtype, wdtype, layout, gen):
    fn = normjit.gemma_fused_add_rmsnorm if gemma else normjit.fused_add_rmsnorm
    x, xfull = make_input(shape, dtype, gen, "contiguous" if layout == "contiguous" else "strided")
    r, rfull = make_input(shape, dtype, gen, "strided" if layout == "strided" else "contiguous")
    w = randn(shape[-1], wdtype, gen)
    h = x.float() + r.float()  # spec 1.5: one fp32 rounding
    ref = ref_rmsnorm(h, w, gemma=gemma)
    spare = [f[:, shape[-1]:].clone() if f is not None else None for f in (xfull, rfull)]
    assert fn(x, r, w) is None
    assert torch.equal(r, h.to(dtype)), "residual must be exactly cvt(x + r)"
    assert_matches(x, ref)
    for f, s in zip((xfull, rfull), spare):
        if f is not None:
            assert torch.equal(f[:, shape[-1]:], s)


@pytest.mark.parametrize("name", ["rmsnorm", "gemma_rmsnorm", "fused_add_rmsnorm",
                                  "gemma_fused_add_rmsnorm"])
@pytest.mark.parametrize("enable_pdl", [None, True, False], ids=["pdl-unset", "pdl-on", "pdl-off"])
@pytest.mark.parametrize("static_weight", [False, True], ids=["", "static-weight"])
@pytest.mark.parametrize("rows", [64, 8])  # 8: few rows, where the promise picks weight-first kernels
def test_enable_pdl(name, enable_pdl, static_weight, rows, gen):
    x = randn((rows, 4096), BF16, gen)
    w = randn(4096, BF16, gen)
    gemma = name.startswith("gemma")
    if "fused" in name:
        r = randn((rows, 4096), BF16, gen)
        h = x.float() + r.float()
        getattr(normjit, name)(x, r, w, enable_pdl=enable_pdl, static_weight=static_weight)
        assert torch.equal(r, h.to(BF16))
        assert_matches(x, ref_rmsnorm(h, w, gemma=gemma))
    else:
        y = getattr(normjit, name)(x, w, enable_pdl=enable_pdl, static_weight=static_weight)
        assert_matches(y, ref_rmsnorm(x, w, gemma=gemma))


@pytest.mark.parametrize("rows,static_weight", [(256, False), (16, True)])
def test_back_to_back_pdl_launches_chain_correctly(rows, static_weight, gen):
    """A chain of dependent PDL launches (each reads what the previous one wrote): a launch that
    started reading before its predecessor finished would be far off the PDL-off chain. With
    static_weight (few rows) only the weight is read before the wait."""
    x = randn((rows, 2048), BF16, gen)
    r = randn((rows, 2048), BF16, gen)
    w = randn(2048, BF16, gen)
    xe, re = x.clone(), r.clone()
    for _ in range(5):
        normjit.fused_add_rmsnorm(x, r, w, enable_pdl=True, static_weight=static_weight)
        x = normjit.rmsnorm(x, w, enable_pdl=True, static_weight=static_weight)
    for _ in range(5):
        normjit.fused_add_rmsnorm(xe, re, w, enable_pdl=False)
        xe = normjit.rmsnorm(xe, w, enable_pdl=False)
    torch.testing.assert_close(x, xe, rtol=1e-2, atol=1e-2)
    torch.testing.assert_close(r, re, rtol=1e-2, atol=5e-2)


def test_zero_rows():
    x = torch.empty(0, 256, device="cuda", dtype=BF16)
    w = torch.ones(256, device="cuda", dtype=BF16)
    y = normjit.rmsnorm(x, w)
    assert y.shape == (0, 256)
    normjit.fused_add_rmsnorm(x, torch.empty_like(x), w)
    y3 = normjit.gemma_rmsnorm(torch.empty(0, 4, 64, device="cuda"), w[:64].float())
    assert y3.shape == (0, 4, 64)


def test_int64_row_stride(gen):
    """Upstream regression: rows 2^31 elements apart (4 GiB buffer)."""
    if torch.cuda.mem_get_info()[0] < 8 << 30:
        pytest.skip("needs 8 GiB of free GPU memory")
    stride = 1 << 31
    buf = torch.empty(stride + 128, device="cuda", dtype=BF16)
    x = buf.as_strided((2, 128), (stride, 1))
    x.copy_(randn((2, 128), BF16, gen))
    w = randn(128, BF16, gen)
    assert_matches(normjit.rmsnorm(x, w), ref_rmsnorm(x, w))
    r = randn((2, 128), BF16, gen)
    h = x.float() + r.float()
    normjit.fused_add_rmsnorm(x, r, w)
    assert torch.equal(r, h.to(BF16))
    assert_matches(x, ref_rmsnorm(h, w))
    del buf, x


def test_widest_supported_row(gen):
    x = randn((3, 262144), BF16, gen)
    w = randn(262144, F32, gen)
    assert_matches(normjit.rmsnorm(x, w), ref_rmsnorm(x, w))


# ---- streams, devices, threads, no sync, no allocation ------------------------------------------
def test_runs_on_the_current_stream_without_synchronizing(gen):
    x = randn((64, 4096), F16, gen)
    w = randn(4096, F16, gen)
    new = randn((64, 4096), F16, gen)
    out = torch.empty_like(x)
    normjit.rmsnorm(x, w, out=out)  # compile/load the kernel outside the timed part
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)  # keeps `s` busy for roughly 0.1 s
        x.copy_(new)  # ordered before the op only if the op runs on `s`
        t0 = time.perf_counter()
        normjit.rmsnorm(x, w, out=out)
        host = time.perf_counter() - t0
        busy = not s.query()
    assert busy, "stream finished early: cannot tell whether the op synchronized"
    assert host < 0.05, f"the call blocked for {host:.3f} s: it synchronized"
    s.synchronize()
    assert_matches(out, ref_rmsnorm(new, w))


def test_allocates_nothing_when_out_is_given(gen):
    x = randn((32, 1024), BF16, gen)
    r = randn((32, 1024), BF16, gen)
    w = randn(1024, BF16, gen)
    out = torch.empty_like(x)
    normjit.rmsnorm(x, w, out=out)
    normjit.fused_add_rmsnorm(x, r, w)
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    for _ in range(10):
        normjit.rmsnorm(x, w, out=out)
        normjit.fused_add_rmsnorm(x, r, w)
    assert torch.cuda.memory_allocated() == before


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_tensors_on_another_device_than_the_current_one(gen):
    dev = torch.device("cuda", torch.cuda.device_count() - 1)
    assert torch.cuda.current_device() != dev.index
    x = torch.randn(16, 1024, device=dev, dtype=BF16)
    w = torch.randn(1024, device=dev, dtype=BF16)
    r = torch.randn(16, 1024, device=dev, dtype=BF16)
    y = normjit.rmsnorm(x, w)
    assert y.device == dev
    assert_matches(y, ref_rmsnorm(x, w))
    h = x.float() + r.float()
    normjit.fused_add_rmsnorm(x, r, w)
    assert torch.equal(r, h.to(BF16))
    with pytest.raises(ValueError, match="weight"):
        normjit.rmsnorm(x, w.to("cuda:0"))


def test_many_threads(gen):
    xs = [randn((8 + i, 1024), BF16, gen) for i in range(8)]
    w = randn(1024, BF16, gen)
    results = [None] * len(xs)
    errors = []

    def work(i):
        try:
            with torch.cuda.stream(torch.cuda.Stream()):
                for _ in range(50):
                    y = normjit.rmsnorm(xs[i], w)
                torch.cuda.current_stream().synchronize()
                results[i] = y
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    torch.cuda.synchronize()  # the inputs exist before other streams read them
    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(xs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for x, y in zip(xs, results):
        assert_matches(y, ref_rmsnorm(x, w))


# ---- torch.compile and CUDA graphs ---------------------------------------------------------------
def _block(x, r, w1, w2, proj):
    normjit.fused_add_rmsnorm(x, r, w1)
    y = normjit.rmsnorm(x, w2)
    q = normjit.gemma_rmsnorm(y.view(y.shape[0], 4, -1), w2[: y.shape[1] // 4])
    normjit.gemma_fused_add_rmsnorm(y, r, w1)
    return y @ proj, q


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_torch_compile_fullgraph_matches_eager(dynamic, gen):
    torch._dynamo.reset()
    compiled = torch.compile(_block, fullgraph=True, dynamic=dynamic)
    for rows in (8, 24):
        x = randn((rows, 512), BF16, gen)
        r = randn((rows, 512), BF16, gen)
        w1, w2 = randn(512, BF16, gen), randn(512, BF16, gen)
        proj = randn((512, 64), BF16, gen)
        xe, re = x.clone(), r.clone()
        ye, qe = _block(xe, re, w1, w2, proj)
        yc, qc = compiled(x, r, w1, w2, proj)
        assert torch.equal(x, xe), "compiled graph did not write the mutated input back"
        assert torch.equal(r, re), "compiled graph did not write the mutated residual back"
        assert torch.equal(qc, qe)
        torch.testing.assert_close(yc, ye, rtol=1e-2, atol=1e-2)


def test_torch_compile_out_aliasing_input(gen):
    def f(x, w):
        y = normjit.rmsnorm(x, w, out=x)
        return y * 2

    torch._dynamo.reset()
    x = randn((16, 256), F16, gen)
    w = randn(256, F16, gen)
    ref = ref_rmsnorm(x, w)
    xe = x.clone()
    ye = f(xe, w)
    yc = torch.compile(f, fullgraph=True)(x, w)
    assert torch.equal(x, xe) and torch.equal(yc, ye)
    assert_matches(x, ref)


def test_cuda_graph_capture_and_replay(gen):
    rows, hidden = 32, 1024
    sx = torch.empty(rows, hidden, device="cuda", dtype=BF16)
    sr = torch.empty_like(sx)
    w1, w2 = randn(hidden, BF16, gen), randn(hidden, F32, gen)

    def step():
        normjit.fused_add_rmsnorm(sx, sr, w1)
        return normjit.rmsnorm(sx, w2), normjit.gemma_rmsnorm(sx.view(rows, 8, -1), w1[:128])

    sx.copy_(randn((rows, hidden), BF16, gen))
    sr.copy_(randn((rows, hidden), BF16, gen))
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm up: compile and load the kernels outside the capture
        for _ in range(2):
            step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        sy, sq = step()
    for _ in range(3):
        x, r = randn((rows, hidden), BF16, gen), randn((rows, hidden), BF16, gen)
        sx.copy_(x)
        sr.copy_(r)
        graph.replay()
        torch.cuda.synchronize()
        h = x.float() + r.float()
        assert torch.equal(sr, h.to(BF16))
        assert_matches(sx, ref_rmsnorm(h, w1))
        assert_matches(sy, ref_rmsnorm(sx, w2))
        assert_matches(sq, ref_rmsnorm(sx.view(rows, 8, -1), w1[:128], gemma=True))


@pytest.mark.parametrize("name", ["rmsnorm", "gemma_rmsnorm", "fused_add_rmsnorm",
                                  "gemma_fused_add_rmsnorm"])
def test_opcheck(name, gen):
    op = getattr(torch.ops.normjit, name).default
    x = randn((8, 256), F16, gen)
    w = randn(256, F16, gen)
    if "fused" in name:
        args = (x, randn((8, 256), F16, gen), w, EPS, None)
    else:
        args = (torch.empty_like(x), x, w, EPS, True)
    torch.library.opcheck(op, args)


# ---- validation errors surface as ValueError with the library's message -----------------------
def _bad_calls(gen):
    x = randn((4, 256), BF16, gen)
    w = randn(256, BF16, gen)
    r = randn((4, 256), BF16, gen)
    wide = torch.empty(1, 1 << 19, device="cuda", dtype=BF16)  # widest supported: 1 << 18
    rms, gemma = normjit.rmsnorm, normjit.gemma_rmsnorm
    fused, gfused = normjit.fused_add_rmsnorm, normjit.gemma_fused_add_rmsnorm
    return [  # (what, call, message pattern)
        ("input int32", lambda: rms(x.to(torch.int32), w),
         r"normjit\.rmsnorm: input: expected dtype"),
        ("input float64", lambda: rms(x.double(), w), r"input: unsupported dtype"),
        ("weight shape", lambda: rms(x, w[:128]), r"normjit\.rmsnorm: weight: expected shape"),
        ("weight dtype", lambda: gemma(x, w.half()), r"weight: expected dtype"),
        ("weight on cpu", lambda: rms(x, w.cpu()), r"weight: expected a CUDA tensor"),
        ("out dtype", lambda: rms(x, w, out=torch.empty_like(x, dtype=F16)),
         r"out: expected dtype"),
        ("out shape", lambda: rms(x, w, out=torch.empty_like(x)[:, :255]), r"out:"),
        ("out overlaps input", lambda: rms(x[:2], w, out=x[1:3]), r"out: must not overlap"),
        ("4-D input", lambda: rms(x.view(1, 2, 2, 256), w), r"input: expected 2 or 3 dimensions"),
        ("last stride", lambda: rms(randn((4, 512), BF16, gen)[:, ::2], w),
         r"input: expected stride 1"),
        ("negative eps", lambda: rms(x, w, eps=-1.0), r"eps: expected a finite value"),
        ("residual shape", lambda: fused(x, r[:3], w),
         r"normjit\.fused_add_rmsnorm: residual:"),
        ("residual dtype", lambda: fused(x, r.half(), w), r"residual: expected dtype"),
        ("residual aliases input", lambda: gfused(x, x, w), r"residual: must not overlap"),
        ("fused 3-D", lambda: fused(x.view(2, 2, 256), r.view(2, 2, 256), w),
         r"input: expected 2 dimensions"),
        ("hidden too wide", lambda: rms(wide, wide[0]), r"input: hidden size"),
    ]


def test_validation_errors_are_value_errors(gen):
    for label, call, pattern in _bad_calls(gen):
        with pytest.raises(ValueError, match=pattern) as info:
            call()
        assert isinstance(info.value, normjit.NormjitValueError), label


def test_unsupported_is_value_error_with_status(gen):
    with pytest.raises(normjit.NormjitValueError) as info:
        normjit.rmsnorm(torch.empty(1, 1 << 19, device="cuda", dtype=BF16),
                        torch.empty(1 << 19, device="cuda", dtype=BF16))
    assert info.value.status_name == "UNSUPPORTED"


# ---- the eager fast path (no dispatcher) against the op and the compiled graph ------------------
def _fast_calls(gen):
    x = randn((24, 512), BF16, gen)
    r = randn((24, 512), BF16, gen)
    w = randn(512, BF16, gen)
    return x, r, w


@pytest.mark.parametrize("gemma", [False, True], ids=["rmsnorm", "gemma"])
def test_fast_eager_path_is_taken_and_matches_op_and_compiled(gemma, gen):
    from normjit import _ops

    name = "gemma_rmsnorm" if gemma else "rmsnorm"
    fused_name = "gemma_fused_add_rmsnorm" if gemma else "fused_add_rmsnorm"
    fn, fused = getattr(normjit, name), getattr(normjit, fused_name)
    op, fused_op = getattr(torch.ops.normjit, name).default, getattr(torch.ops.normjit, fused_name).default
    x, r, w = _fast_calls(gen)
    q = x.view(24, 4, 128)[:, :3]  # a strided per-head view

    # the fast path runs (returns True) for plain CUDA tensors and bumps the version counters
    out = torch.empty_like(x)
    v = out._version
    assert _ops.eager_rms(name, out, x, w, EPS, None) is True
    assert out._version > v
    xf, rf = x.clone(), r.clone()
    vx, vr = xf._version, rf._version
    assert _ops.eager_fused(fused_name, xf, rf, w, EPS, None) is True
    assert xf._version > vx and rf._version > vr

    # the op through the dispatcher: bit-identical, and it bumps the version counters too
    out_op = torch.empty_like(x)
    v = out_op._version
    op(out_op, x, w, EPS, None)
    assert out_op._version > v and torch.equal(out, out_op)
    xo, ro = x.clone(), r.clone()
    fused_op(xo, ro, w, EPS, None)
    assert torch.equal(xo, xf) and torch.equal(ro, rf)

    # the public functions (fast path) and the same under torch.compile: bit-identical
    def f(x, r, w, q):
        y = fn(x, w)
        yq = fn(q, w[:128])
        fused(x, r, w)
        return y, yq

    xe, re = x.clone(), r.clone()
    ye, yqe = f(xe, re, w, xe.view(24, 4, 128)[:, :3])
    torch._dynamo.reset()
    xc, rc = x.clone(), r.clone()
    yc, yqc = torch.compile(f, fullgraph=True)(xc, rc, w, xc.view(24, 4, 128)[:, :3])
    for a, b in ((ye, yc), (yqe, yqc), (xe, xc), (re, rc), (ye, out)):
        assert torch.equal(a, b)
    assert_matches(yqe, ref_rmsnorm(q, w[:128], gemma=gemma))


def test_fast_path_under_inference_mode_and_autograd(gen):
    x, r, w = _fast_calls(gen)
    ref = normjit.rmsnorm(x, w)
    with torch.inference_mode():
        xi, wi = x.clone(), w.clone()
        assert torch.equal(normjit.rmsnorm(xi, wi), ref)
        oi = torch.empty_like(xi)
        assert normjit.rmsnorm(xi, wi, out=oi) is oi and torch.equal(oi, ref)
        ri, xi2 = r.clone(), x.clone()
        normjit.fused_add_rmsnorm(xi2, ri, wi)
    xr, rr = x.clone(), r.clone()
    normjit.fused_add_rmsnorm(xr, rr, w)
    assert torch.equal(xi2, xr) and torch.equal(ri, rr)
    # an input that requires grad goes through the dispatcher (no autograd formula): same values
    wg = w.clone().requires_grad_()
    yg = normjit.rmsnorm(x, wg)
    assert torch.equal(yg, ref)
    # an nn.Parameter weight takes the fast path under no_grad
    with torch.no_grad():
        assert torch.equal(normjit.rmsnorm(x, torch.nn.Parameter(w.clone())), ref)


def test_fast_path_in_cuda_graph_capture(gen):
    from normjit import _ops

    x, r, w = _fast_calls(gen)
    sx = x.clone()
    out = torch.empty_like(x)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        normjit.rmsnorm(sx.clone(), w, out=out)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        taken = _ops.eager_rms("rmsnorm", out, sx, w, EPS, None)
    assert taken
    g.replay()
    torch.cuda.synchronize()
    assert torch.equal(out, normjit.rmsnorm(x, w))
