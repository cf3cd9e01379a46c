"""Tests of the torch integration that need no GPU: custom-op registration and schemas, fake
(meta) kernels, torch.compile tracing without graph breaks, and the binding's own checks."""

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

import normjit  # noqa: E402
from normjit import _library  # noqa: E402

OPS = ("rmsnorm", "gemma_rmsnorm", "fused_add_rmsnorm", "gemma_fused_add_rmsnorm")


@pytest.fixture
def no_library(monkeypatch, tmp_path):
    """No libnormjit anywhere: proves a code path never needs the library."""
    saved = _library._library
    _library._library = None
    monkeypatch.setenv("NORMJIT_LIBRARY", str(tmp_path / "missing" / "libnormjit.so"))
    yield
    monkeypatch.undo()
    _library._library = saved


@pytest.mark.parametrize("name", OPS)
def test_custom_op_is_registered(name):
    op = getattr(torch.ops.normjit, name).default
    schema = op._schema
    mutable = [a.name for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write]
    if "fused" in name:
        assert [a.name for a in schema.arguments] == ["input", "residual", "weight", "eps", "enable_pdl",
                                                      "static_weight"]
        assert mutable == ["input", "residual"]
    else:
        assert [a.name for a in schema.arguments] == ["out", "input", "weight", "eps", "enable_pdl",
                                                      "static_weight"]
        assert mutable == ["out"]
    assert len(schema.returns) == 0
    assert str(schema.arguments[-2].type) == "Optional[bool]"
    assert str(schema.arguments[-1].type) == "bool" and schema.arguments[-1].default_value is False


DTYPES = [(torch.float16, torch.float16), (torch.bfloat16, torch.bfloat16),
          (torch.float32, torch.float32), (torch.bfloat16, torch.float32)]


@pytest.mark.parametrize("dtype,wdtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 96), (2, 3, 64)])
@pytest.mark.parametrize("name", ["rmsnorm", "gemma_rmsnorm"])
def test_rmsnorm_meta(name, shape, dtype, wdtype, no_library):
    fn = getattr(normjit, name)
    x = torch.empty(shape, device="meta", dtype=dtype)
    w = torch.empty(shape[-1], device="meta", dtype=wdtype)
    y = fn(x, w)
    assert y.shape == x.shape and y.dtype == dtype and y.device.type == "meta" and y is not x
    o = torch.empty_like(x)
    assert fn(x, w, 1e-5, o, True) is o
    assert fn(x, w, out=x) is x
    # a strided (non-dense) input gives a dense output, as torch.empty_like does
    full = torch.empty(*shape[:-1], 2 * shape[-1], device="meta", dtype=dtype)
    assert fn(full[..., : shape[-1]], w).is_contiguous()


@pytest.mark.parametrize("dtype,wdtype", DTYPES)
@pytest.mark.parametrize("name", ["fused_add_rmsnorm", "gemma_fused_add_rmsnorm"])
def test_fused_add_meta(name, dtype, wdtype, no_library):
    x = torch.empty(7, 128, device="meta", dtype=dtype)
    r = torch.empty(7, 128, device="meta", dtype=dtype)
    w = torch.empty(128, device="meta", dtype=wdtype)
    assert getattr(normjit, name)(x, r, w) is None
    assert getattr(normjit, name)(x, r, w, eps=1e-5, enable_pdl=False) is None


def test_fake_tensor_mode_on_cuda_device_without_gpu(no_library):
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(4, 2, 64, device="cuda", dtype=torch.bfloat16)
        w = torch.empty(64, device="cuda", dtype=torch.float32)
        y = normjit.rmsnorm(x, w)
        assert y.shape == (4, 2, 64) and y.dtype == torch.bfloat16 and y.device.type == "cuda"
        normjit.fused_add_rmsnorm(x[:, 0], torch.empty_like(x[:, 0]), w)


@pytest.mark.parametrize("name", OPS)
def test_cpu_tensors_are_rejected_before_the_library_is_loaded(name, no_library):
    x = torch.randn(4, 64)
    w = torch.randn(64)
    with pytest.raises(normjit.NormjitValueError, match=rf"normjit\.{name}: input: expected a CUDA tensor"):
        if "fused" in name:
            getattr(normjit, name)(x, torch.randn(4, 64), w)
        else:
            getattr(normjit, name)(x, w)
    with pytest.raises(ValueError, match="expected a CUDA tensor"):
        if "fused" in name:
            getattr(normjit, name)(x, x.clone(), w)
        else:
            getattr(normjit, name)(x, w, out=torch.empty_like(x))
    assert _library._library is None  # nothing was loaded


def _block(x, r, w1, w2, proj):
    normjit.fused_add_rmsnorm(x, r, w1)
    y = normjit.rmsnorm(x, w2)
    z = normjit.gemma_rmsnorm(y.view(y.shape[0], 2, -1), w2[: y.shape[1] // 2])
    normjit.gemma_fused_add_rmsnorm(y, r, w1)
    return z.view(y.shape) @ proj


def test_compile_fullgraph_traces_one_graph(no_library):
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    x, r = (torch.empty(6, 64, device="meta") for _ in range(2))
    w1, w2 = torch.empty(64, device="meta"), torch.empty(64, device="meta")
    proj = torch.empty(64, 16, device="meta")
    torch._dynamo.reset()
    out = torch.compile(_block, fullgraph=True, backend=backend)(x, r, w1, w2, proj)
    assert out.shape == (6, 16)
    assert len(graphs) == 1
    code = graphs[0].code
    for name in OPS:
        assert f"torch.ops.normjit.{name}.default" in code


def test_compile_functionalizes_the_mutations(no_library):
    # aot_eager runs AOTAutograd's functionalization (auto_functionalized + copy_ back into the
    # mutated inputs) and then the fake kernels, all on meta tensors.
    x, r = (torch.empty(6, 64, device="meta") for _ in range(2))
    w = torch.empty(64, device="meta")
    proj = torch.empty(64, 16, device="meta")
    torch._dynamo.reset()
    out = torch.compile(_block, fullgraph=True, backend="aot_eager", dynamic=True)(x, r, w, w, proj)
    assert out.shape == (6, 16)


SCHEMAS = {
    "rmsnorm": "normjit::rmsnorm(Tensor(a!) out, Tensor input, Tensor weight, float eps, "
    "bool? enable_pdl, bool static_weight=False) -> ()",
    "fused_add_rmsnorm": "normjit::fused_add_rmsnorm(Tensor(a!) input, Tensor(b!) residual, "
    "Tensor weight, float eps, bool? enable_pdl, bool static_weight=False) -> ()",
}


@pytest.mark.parametrize("name", OPS)
def test_op_schema_string(name):
    op = getattr(torch.ops.normjit, name).default
    expected = SCHEMAS[name.replace("gemma_", "")].replace("normjit::" + name.replace("gemma_", ""),
                                                            "normjit::" + name)
    assert str(op._schema) == expected
    assert op._schema.is_mutable
    # a real dispatcher op with kernels for CUDA (the work), CPU (rejects) and Meta (the fake)
    for key in ("CUDA", "CPU", "Meta"):
        assert torch._C._dispatch_has_kernel_for_dispatch_key(f"normjit::{name}", key), key


def _eager(name, *args):
    from normjit import _ops

    fn = _ops.eager_fused if "fused" in name else _ops.eager_rms
    return fn(name, *args)


@pytest.mark.parametrize("name", OPS)
def test_eager_fast_path_declines_what_needs_the_dispatcher(name, no_library):
    """The dispatcher-free path runs only for plain CUDA tensors: meta, CPU, fake tensors, active
    modes and autograd all go to the op (and the library is never loaded for them)."""
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.utils._python_dispatch import TorchDispatchMode

    def args(device, rg=False):
        x = torch.empty(4, 64, device=device, requires_grad=rg)
        return (x, torch.empty(4, 64, device=device), torch.empty(64, device=device))

    def call(a):
        if "fused" in name:
            return _eager(name, a[0], a[1], a[2], 1e-6, None)
        return _eager(name, a[1], a[0], a[2], 1e-6, None)

    assert call(args("meta")) is False
    assert call(args("cpu")) is False
    assert call(args("cpu", rg=True)) is False
    with FakeTensorMode():
        assert call(args("cuda")) is False

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, a=(), kw=None):
            return func(*a, **(kw or {}))

    with Mode():
        assert call(args("meta")) is False
    assert _library._library is None


def test_compiled_graph_calls_the_op_not_the_fast_path(no_library, monkeypatch):
    """Under torch.compile the public functions trace to torch.ops.normjit.* (the fast path is
    never consulted while dynamo traces)."""
    from normjit import _ops

    def boom(*a, **k):
        raise AssertionError("eager fast path used while compiling")

    monkeypatch.setattr(normjit.norm, "_eager_rms", boom)
    monkeypatch.setattr(normjit.norm, "_eager_fused", boom)
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    x, r = (torch.empty(6, 64, device="meta") for _ in range(2))
    w = torch.empty(64, device="meta")
    torch._dynamo.reset()
    torch.compile(_block, fullgraph=True, backend=backend)(x, r, w, w, torch.empty(64, 16, device="meta"))
    assert len(graphs) == 1
    assert _ops.eager_rms is not boom
