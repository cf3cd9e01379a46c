"""The torch custom ops ``normjit::*`` and the tensor -> ``normjit_tensor`` packing. Imported by
``normjit.norm`` only when torch is importable.

Each op is a ``torch.library.custom_op`` whose eager kernel packs the tensors into per-thread
``normjit_tensor`` buffers (one ``struct.pack_into`` each) and calls the C ABI with the current
CUDA stream of the input's device. Nothing here synchronizes or allocates: the public wrappers in
``normjit.norm`` allocate the outputs that FlashInfer's API returns, then call these ops.
"""

import ctypes
import struct
import threading
from typing import Optional

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

# normjit_tensor: data, dtype, ndim, shape[8], stride[8], device, tail padding. One struct per
# ndim so that only the used shape/stride entries are passed; pack_into zero-fills the padding.
_MAXD = _library.MAX_DIMS
_STRUCTS = tuple(
    struct.Struct(f"=Qii{n}q{8 * (_MAXD - n)}x{n}q{8 * (_MAXD - n)}xi4x") for n in range(_MAXD + 1)
)
assert all(s.size == _library.TENSOR_SIZE for s in _STRUCTS), _library.TENSOR_SIZE
_T = _library.TENSOR_SIZE
# _PACK[ndim](buf, offset, data_ptr, dtype_code, ndim, *shape, *stride, device)
_PACK = tuple(s.pack_into for s in _STRUCTS)
_PDL = {None: -1, False: 0, True: 1}


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


# The two call paths below are written out flat (no helper per tensor): this is the per-call
# host overhead of every op, see benchmarks/overhead.py.
def _rms(fn_name: str, op: str, out, input, weight, eps: float, enable_pdl) -> None:
    named = None
    try:
        if not (input.is_cuda and weight.is_cuda and out.is_cuda):
            raise TypeError
        s = _scratch
        buf = s.buf
        dt = DTYPE_CODES
        sh = input.shape
        _PACK[len(sh)](buf, 0, input.data_ptr(), dt[input.dtype], len(sh), *sh, *input.stride(),
                       input.get_device())
        sh = weight.shape
        _PACK[len(sh)](buf, _T, weight.data_ptr(), dt[weight.dtype], len(sh), *sh,
                       *weight.stride(), weight.get_device())
        sh = out.shape
        _PACK[len(sh)](buf, 2 * _T, out.data_ptr(), dt[out.dtype], len(sh), *sh, *out.stride(),
                       out.get_device())
    except (TypeError, KeyError, IndexError, AttributeError, RuntimeError) as e:
        named = (("input", input), ("weight", weight), ("out", out))
        err = e
    if named is not None:
        _reject(op, named, err)
    lib = _library._library or _library.get()
    status = getattr(lib, fn_name)(
        s.p0, s.p1, eps, s.p2, _raw_stream(input.get_device()), _PDL[enable_pdl]
    )
    if status:
        raise lib.error(status)


def _fused(fn_name: str, op: str, input, residual, weight, eps: float, enable_pdl) -> None:
    named = None
    try:
        if not (input.is_cuda and residual.is_cuda and weight.is_cuda):
            raise TypeError
        s = _scratch
        buf = s.buf
        dt = DTYPE_CODES
        sh = input.shape
        _PACK[len(sh)](buf, 0, input.data_ptr(), dt[input.dtype], len(sh), *sh, *input.stride(),
                       input.get_device())
        sh = residual.shape
        _PACK[len(sh)](buf, _T, residual.data_ptr(), dt[residual.dtype], len(sh), *sh,
                       *residual.stride(), residual.get_device())
        sh = weight.shape
        _PACK[len(sh)](buf, 2 * _T, weight.data_ptr(), dt[weight.dtype], len(sh), *sh,
                       *weight.stride(), weight.get_device())
    except (TypeError, KeyError, IndexError, AttributeError, RuntimeError) as e:
        named = (("input", input), ("residual", residual), ("weight", weight))
        err = e
    if named is not None:
        _reject(op, named, err)
    lib = _library._library or _library.get()
    status = getattr(lib, fn_name)(
        s.p0, s.p1, s.p2, eps, _raw_stream(input.get_device()), _PDL[enable_pdl]
    )
    if status:
        raise lib.error(status)


# ---- custom ops ------------------------------------------------------------------------------
# Argument order follows FlashInfer's own custom ops (flashinfer::rmsnorm takes `out` first).
# These functions must keep real (non-string) annotations: custom_op infers the schema from them.


@torch.library.custom_op("normjit::rmsnorm", mutates_args=("out",))
def rmsnorm_op(
    out: torch.Tensor,
    input: torch.Tensor,
    weight: torch.Tensor,
    eps: float,
    enable_pdl: Optional[bool],
) -> None:
    _rms("rmsnorm", "rmsnorm", out, input, weight, eps, enable_pdl)


@torch.library.custom_op("normjit::gemma_rmsnorm", mutates_args=("out",))
def gemma_rmsnorm_op(
    out: torch.Tensor,
    input: torch.Tensor,
    weight: torch.Tensor,
    eps: float,
    enable_pdl: Optional[bool],
) -> None:
    _rms("gemma_rmsnorm", "gemma_rmsnorm", out, input, weight, eps, enable_pdl)


@torch.library.custom_op("normjit::fused_add_rmsnorm", mutates_args=("input", "residual"))
def fused_add_rmsnorm_op(
    input: torch.Tensor,
    residual: torch.Tensor,
    weight: torch.Tensor,
    eps: float,
    enable_pdl: Optional[bool],
) -> None:
    _fused("fused_add_rmsnorm", "fused_add_rmsnorm", input, residual, weight, eps, enable_pdl)


@torch.library.custom_op("normjit::gemma_fused_add_rmsnorm", mutates_args=("input", "residual"))
def gemma_fused_add_rmsnorm_op(
    input: torch.Tensor,
    residual: torch.Tensor,
    weight: torch.Tensor,
    eps: float,
    enable_pdl: Optional[bool],
) -> None:
    _fused(
        "gemma_fused_add_rmsnorm",
        "gemma_fused_add_rmsnorm",
        input,
        residual,
        weight,
        eps,
        enable_pdl,
    )


# Fake (meta) kernels: the ops only write into tensors the caller passed, so there is nothing to
# allocate; shapes and dtypes of the results are those of the given tensors.
@rmsnorm_op.register_fake
def _rmsnorm_fake(out, input, weight, eps, enable_pdl) -> None:
    return None


@gemma_rmsnorm_op.register_fake
def _gemma_rmsnorm_fake(out, input, weight, eps, enable_pdl) -> None:
    return None


@fused_add_rmsnorm_op.register_fake
def _fused_add_rmsnorm_fake(input, residual, weight, eps, enable_pdl) -> None:
    return None


@gemma_fused_add_rmsnorm_op.register_fake
def _gemma_fused_add_rmsnorm_fake(input, residual, weight, eps, enable_pdl) -> None:
    return None


OP_NAMES = ("rmsnorm", "gemma_rmsnorm", "fused_add_rmsnorm", "gemma_fused_add_rmsnorm")
