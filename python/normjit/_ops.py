"""The torch ops ``normjit::*`` and the tensor -> ``normjit_tensor`` packing. Imported by
``normjit.norm`` only when torch is importable.

Each op is defined with ``torch.library.Library("normjit", "DEF")`` and a schema with alias
annotations (``Tensor(a!) out``), gets a Python kernel for the CUDA (and CPU, which only rejects)
dispatch keys and a fake kernel (``torch.library.register_fake``, which also serves meta tensors).
Calling ``torch.ops.normjit.*.default`` then costs one trip through the C++ dispatcher, not the
several Python layers of a ``torch.library.custom_op``.

Two ways into the same packing code:

- the op kernels (``_rms`` / ``_fused``), reached through the dispatcher: torch.compile graphs,
  FakeTensor / functionalization / make_fx tracing, autograd, meta and CPU tensors;
- ``eager_rms`` / ``eager_fused``, called by ``normjit.norm`` outside torch.compile when
  nothing could observe the difference (no dispatch or function mode, no functorch transform, no
  JIT tracer, plain CUDA tensors, nothing requiring grad): they skip the dispatcher and return
  False (having done nothing) whenever any of that does not hold, so the caller takes the op.

Both bump the version counters of the tensors they write, as the dispatcher does for in-place
ATen ops (a ``Library`` op's ADInplaceOrView key falls through and would not). Nothing here
synchronizes or allocates: the public wrappers in ``normjit.norm`` allocate the outputs that
FlashInfer's API returns.
"""

import ctypes
import struct
import threading
import torch

from . import _library
from ._errors import NormjitValueError

# normjit_dtype codes of normjit.h.
DTYPE_CODES = {
    torch.float32: 0,
    torch.float16: 1,
    torch.bfloat16: 2,
    torch.uint8: 5,
    torch.int32: 6,
}
for _name, _code in (("float8_e4m3fn", 3), ("float8_e5m2", 4)):
    if hasattr(torch, _name):
        DTYPE_CODES[getattr(torch, _name)] = _code
_KNOWN = "float32, float16, bfloat16, float8_e4m3fn, float8_e5m2, uint8, int32"

# normjit_tensor: data, dtype, ndim, shape[8], stride[8], device, tail padding. Only the used
# shape/stride entries are passed to pack_into, which zero-fills the padding ("x").
_MAXD = _library.MAX_DIMS
_T = _library.TENSOR_SIZE
assert struct.calcsize(f"=Qii{_MAXD}q{_MAXD}qi4x") == _T, _T
# The C API's enable_pdl code, by static_weight then enable_pdl: -1 unset, 0 off, 1 on, 2 on
# with the static-weight promise (NORMJIT_PDL_STATIC_WEIGHT), which rides on PDL and is dropped
# where PDL is off.
_PDL = ({None: -1, False: 0, True: 1}, {None: 2, False: 0, True: 2})


class _Scratch(threading.local):
    """Three normjit_tensor structs per thread (ctypes calls release the GIL, so the buffers
    must not be shared between threads)."""

    def __init__(self) -> None:
        self.buf = ctypes.create_string_buffer(3 * _T)
        base = ctypes.addressof(self.buf)
        self.p0, self.p1, self.p2 = base, base + _T, base + 2 * _T


_scratch = _Scratch()

try:  # what torch.cuda.current_stream(i).cuda_stream returns, without building a Stream object
    _raw_stream = torch._C._cuda_getCurrentRawStream
except AttributeError:  # pragma: no cover - very old or CPU-only torch builds

    def _raw_stream(index: int) -> int:
        return torch.cuda.current_stream(index).cuda_stream


def _reject(op: str, named, err: BaseException) -> None:
    """Raise the binding's own error for the first tensor the library cannot be given (or the
    original error when none of these checks explains it)."""
    for arg, t in named:
        if not isinstance(t, torch.Tensor):
            raise NormjitValueError(f"normjit.{op}: {arg}: expected a torch.Tensor, got {type(t)}")
        if not t.is_cuda:
            raise NormjitValueError(
                f"normjit.{op}: {arg}: expected a CUDA tensor, got a tensor on {t.device}"
            )
        if t.dtype not in DTYPE_CODES:
            raise NormjitValueError(
                f"normjit.{op}: {arg}: unsupported dtype {t.dtype} (normjit tensors are {_KNOWN})"
            )
        if t.dim() > _MAXD:
            raise NormjitValueError(
                f"normjit.{op}: {arg}: expected 1 to {_MAXD} dimensions, got {t.dim()}"
            )
        if t.layout != torch.strided:
            raise NormjitValueError(
                f"normjit.{op}: {arg}: expected a strided tensor, got {t.layout}"
            )
    raise err


# One struct.Struct per (input, second, third) ndim triple: the three normjit_tensor structs of a
# call are packed with a single pack_into (built at first use, at most 9**3 of them).
def _make_pack3(key):
    if max(key) > _MAXD:
        raise IndexError(key)
    fmt = "=" + "".join(
        f"Qii{n}q{8 * (_MAXD - n)}x{n}q{8 * (_MAXD - n)}xi4x" for n in key
    )
    assert struct.calcsize(fmt) == 3 * _T
    p = _PACK3[key] = struct.Struct(fmt).pack_into
    return p


_PACK3 = {}


def _pack3(a, b, c):
    """Pack a, b, c into this thread's scratch structs; returns the scratch. Raises TypeError,
    KeyError, IndexError, AttributeError or RuntimeError for what the library cannot take."""
    if not (a.is_cuda and b.is_cuda and c.is_cuda):
        raise TypeError
    s = _scratch
    dt = DTYPE_CODES
    s0 = a.shape
    s1 = b.shape
    s2 = c.shape
    key = (len(s0), len(s1), len(s2))
    (_PACK3.get(key) or _make_pack3(key))(
        s.buf, 0,
        a.data_ptr(), dt[a.dtype], key[0], *s0, *a.stride(), a.get_device(),
        b.data_ptr(), dt[b.dtype], key[1], *s1, *b.stride(), b.get_device(),
        c.data_ptr(), dt[c.dtype], key[2], *s2, *c.stride(), c.get_device(),
    )  # fmt: skip
    return s


_bump = torch._C._increment_version  # skips inference tensors (they have no version counter)


# ---- op kernels (reached through the dispatcher) -----------------------------------------------
def _rms(op: str, out, input, weight, eps: float, enable_pdl, static_weight=False) -> None:
    try:
        s = _pack3(input, weight, out)
    except (TypeError, KeyError, IndexError, AttributeError, RuntimeError) as e:
        _reject(op, (("input", input), ("weight", weight), ("out", out)), e)
    fn = getattr(_library._library or _library.get(), op)
    status = fn(s.p0, s.p1, eps, s.p2, _raw_stream(input.get_device()), _PDL[static_weight][enable_pdl])
    if status:
        raise _library._library.error(status)
    _bump((out,))


def _fused(op: str, input, residual, weight, eps: float, enable_pdl, static_weight=False) -> None:
    try:
        s = _pack3(input, residual, weight)
    except (TypeError, KeyError, IndexError, AttributeError, RuntimeError) as e:
        _reject(op, (("input", input), ("residual", residual), ("weight", weight)), e)
    fn = getattr(_library._library or _library.get(), op)
    status = fn(s.p0, s.p1, s.p2, eps, _raw_stream(input.get_device()), _PDL[static_weight][enable_pdl])
    if status:
        raise _library._library.error(status)
    _bump((input, residual))


# ---- eager fast path (no dispatcher) ------------------------------------------------------------
_PLAIN = frozenset((torch.Tensor, torch.nn.Parameter))
_dispatch_modes = torch._C._len_torch_dispatch_stack
_function_modes = torch._C._len_torch_function_stack
_functorch = torch._C._are_functorch_transforms_active
_jit_tracing = torch._C._get_tracing_state
_grad_enabled = torch.is_grad_enabled


def _eager_pack(a, b, c):
    """The scratch packed with a, b, c when the op may skip the dispatcher, else None."""
    if (
        _dispatch_modes()
        or _function_modes()
        or _functorch()
        or _jit_tracing() is not None
        or type(a) not in _PLAIN
        or type(b) not in _PLAIN
        or type(c) not in _PLAIN
        or (_grad_enabled() and (a.requires_grad or b.requires_grad or c.requires_grad))
    ):
        return None
    try:
        return _pack3(a, b, c)
    except (TypeError, KeyError, IndexError, AttributeError, RuntimeError):
        return None  # the op's kernel reports it


def eager_rms(op: str, out, input, weight, eps: float, enable_pdl, static_weight=False) -> bool:
    """Run ``normjit::<op>`` (rmsnorm or gemma_rmsnorm) without the dispatcher. False when it did
    nothing because the dispatcher is needed (modes, subclasses, autograd, CPU/meta tensors,
    anything the library cannot take): the caller then calls the op."""
    s = _eager_pack(input, weight, out)
    if s is None:
        return False
    fn = getattr(_library._library or _library.get(), op)
    status = fn(s.p0, s.p1, eps, s.p2, _raw_stream(input.get_device()), _PDL[static_weight][enable_pdl])
    if status:
        raise _library._library.error(status)
    _bump((out,))
    return True


def eager_fused(op: str, input, residual, weight, eps: float, enable_pdl, static_weight=False) -> bool:
    """As :func:`eager_rms`, for fused_add_rmsnorm and gemma_fused_add_rmsnorm."""
    s = _eager_pack(input, residual, weight)
    if s is None:
        return False
    fn = getattr(_library._library or _library.get(), op)
    status = fn(s.p0, s.p1, s.p2, eps, _raw_stream(input.get_device()), _PDL[static_weight][enable_pdl])
    if status:
        raise _library._library.error(status)
    _bump((input, residual))
    return True


# ---- the ops -------------------------------------------------------------------------------------
# Argument order follows FlashInfer's own custom ops (flashinfer::rmsnorm takes `out` first).
OP_NAMES = ("rmsnorm", "gemma_rmsnorm", "fused_add_rmsnorm", "gemma_fused_add_rmsnorm")
SCHEMAS = {
    "rmsnorm": (
        "(Tensor(a!) out, Tensor input, Tensor weight, float eps, bool? enable_pdl, "
        "bool static_weight=False) -> ()"
    ),
    "fused_add_rmsnorm": (
        "(Tensor(a!) input, Tensor(b!) residual, Tensor weight, float eps, bool? enable_pdl, "
        "bool static_weight=False) -> ()"
    ),
}
SCHEMAS["gemma_rmsnorm"] = SCHEMAS["rmsnorm"]
SCHEMAS["gemma_fused_add_rmsnorm"] = SCHEMAS["fused_add_rmsnorm"]

_LIB = torch.library.Library("normjit", "DEF")  # kept alive: dropping it unregisters the ops


def _rms_kernel(op):
    def kernel(out, input, weight, eps, enable_pdl, static_weight=False):
        _rms(op, out, input, weight, eps, enable_pdl, static_weight)

    return kernel


def _fused_kernel(op):
    def kernel(input, residual, weight, eps, enable_pdl, static_weight=False):
        _fused(op, input, residual, weight, eps, enable_pdl, static_weight)

    return kernel


# Fake (meta) kernels: the ops only write into tensors the caller passed, so there is nothing to
# allocate and nothing to return.
def _rms_fake(out, input, weight, eps, enable_pdl, static_weight=False) -> None:
    return None


def _fused_fake(input, residual, weight, eps, enable_pdl, static_weight=False) -> None:
    return None


for _op in OP_NAMES:
    _LIB.define(_op + SCHEMAS[_op])
    _kernel = (_fused_kernel if "fused" in _op else _rms_kernel)(_op)
    # CUDA does the work; CPU only rejects (with NormjitValueError, like any other argument error).
    for _key in ("CUDA", "CPU"):
        _LIB.impl(_op, _kernel, _key)
    torch.library.register_fake(
        f"normjit::{_op}", _fused_fake if "fused" in _op else _rms_fake, lib=_LIB
    )
del _op, _kernel, _key
