"""FlashInfer-compatible normalization API: the same names, arguments, defaults, in-place
behaviour and return values as ``flashinfer.norm`` (for the ops normjit implements), so code
switches by changing one import::

    from flashinfer.norm import rmsnorm, fused_add_rmsnorm   # before
    from normjit.norm import rmsnorm, fused_add_rmsnorm      # after

Every function is a ``torch.library`` op (``torch.ops.normjit.*``) with a fake kernel, so
``torch.compile(fullgraph=True)`` and CUDA graph capture work. In plain eager mode (not compiling,
no dispatch/function mode, plain CUDA tensors, nothing requiring grad) the functions call the
op's CUDA kernel directly, without the dispatcher: same kernel, same result, less host time. Tensors may live on any CUDA
device; work goes to that device's current stream; nothing synchronizes; the only allocation is
the output of ``rmsnorm``/``gemma_rmsnorm`` when ``out`` is None (``torch.empty_like(input)``).

Argument errors raise ``normjit.NormjitValueError`` (a ``ValueError``) carrying the library's
message; driver/compile failures raise ``normjit.NormjitRuntimeError`` (a ``RuntimeError``).
This module imports without torch (the functions then raise ImportError when called).
"""

from __future__ import annotations

from typing import Optional

try:
    import torch
except ImportError as _e:  # torch missing: keep the API importable and inspectable
    torch = None  # type: ignore[assignment]
    _TORCH_IMPORT_ERROR: Optional[ImportError] = _e
else:
    _TORCH_IMPORT_ERROR = None
    if not hasattr(torch.library, "register_fake"):  # added in torch 2.4
        _TORCH_IMPORT_ERROR = ImportError(
            f"normjit needs torch >= 2.4 (torch.library.register_fake); found torch "
            f"{torch.__version__}"
        )
        torch = None  # type: ignore[assignment]

__all__ = ["rmsnorm", "gemma_rmsnorm", "fused_add_rmsnorm", "gemma_fused_add_rmsnorm"]

if torch is not None:
    from . import _ops  # registers torch.ops.normjit.*

    _empty_like = torch.empty_like
    _is_compiling = torch.compiler.is_compiling  # True while dynamo traces: the op goes in the graph
    _eager_rms = _ops.eager_rms
    _eager_fused = _ops.eager_fused
    _rmsnorm_op = torch.ops.normjit.rmsnorm.default
    _gemma_rmsnorm_op = torch.ops.normjit.gemma_rmsnorm.default
    _fused_add_rmsnorm_op = torch.ops.normjit.fused_add_rmsnorm.default
    _gemma_fused_add_rmsnorm_op = torch.ops.normjit.gemma_fused_add_rmsnorm.default
else:

    def _needs_torch(*args, **kwargs):
        raise ImportError(
            f"normjit's ops take torch tensors, but torch is unusable: {_TORCH_IMPORT_ERROR}"
        ) from _TORCH_IMPORT_ERROR

    _empty_like = _rmsnorm_op = _gemma_rmsnorm_op = _needs_torch
    _fused_add_rmsnorm_op = _gemma_fused_add_rmsnorm_op = _needs_torch
    _eager_rms = _eager_fused = _needs_torch

    def _is_compiling() -> bool:
        return False


def rmsnorm(
    input: torch.Tensor,
    weight: torch.Tensor,
    eps: float = 1e-6,
    out: Optional[torch.Tensor] = None,
    enable_pdl: Optional[bool] = None,
    *,
    static_weight: bool = False,
) -> torch.Tensor:
    r"""Root mean square normalization: ``out[i] = (input[i] / RMS(input[i])) * weight``.

    Parameters
    ----------
    input: torch.Tensor
        2-D ``[batch_size, hidden_size]`` or 3-D ``[batch_size, num_heads, head_dim]`` (each
        head normalized on its own), fp16/bf16/fp32 on a CUDA device; stride 1 in the last
        dimension, other strides free.
    weight: torch.Tensor
        ``[hidden_size]``, contiguous, of the input's dtype or fp32.
    eps: float
        Epsilon for numerical stability.
    out: Optional[torch.Tensor]
        Written in place when given (may be ``input`` itself); else ``torch.empty_like(input)``.
    enable_pdl: Optional[bool]
        Programmatic dependent launch: None or True use it where the GPU supports it (sm_90+).
    static_weight: bool
        normjit only (keyword, not in flashinfer): the promise that no work in flight on the stream
        writes ``weight`` (true for model weights). With PDL, calls of a few rows then read the
        weight before waiting for the previous kernel (shorter decode steps in CUDA graphs).

    Returns
    -------
    output: torch.Tensor
        ``out`` (the given tensor, or the one allocated).
    """
    if out is None:
        out = _empty_like(input)
    if _is_compiling() or not _eager_rms("rmsnorm", out, input, weight, eps, enable_pdl, static_weight):
        _rmsnorm_op(out, input, weight, eps, enable_pdl, static_weight)
    return out


def gemma_rmsnorm(
    input: torch.Tensor,
    weight: torch.Tensor,
    eps: float = 1e-6,
    out: Optional[torch.Tensor] = None,
    enable_pdl: Optional[bool] = None,
    *,
    static_weight: bool = False,
) -> torch.Tensor:
    r"""Gemma-style RMSNorm: ``out[i] = (input[i] / RMS(input[i])) * (weight + 1)``, the 1 added
    in fp32. Same arguments, shapes and return value as :func:`rmsnorm`."""
    if out is None:
        out = _empty_like(input)
    if _is_compiling() or not _eager_rms("gemma_rmsnorm", out, input, weight, eps, enable_pdl, static_weight):
        _gemma_rmsnorm_op(out, input, weight, eps, enable_pdl, static_weight)
    return out


def fused_add_rmsnorm(
    input: torch.Tensor,
    residual: torch.Tensor,
    weight: torch.Tensor,
    eps: float = 1e-6,
    enable_pdl: Optional[bool] = None,
    *,
    static_weight: bool = False,
) -> None:
    r"""Fused residual add + RMSNorm, in place on both tensors.

    Step 1: ``residual = input + residual`` (fp32 sum, stored rounded to the dtype).
    Step 2: ``input = (sum / RMS(sum)) * weight`` (normalizing the unrounded fp32 sum).

    ``input`` and ``residual`` are 2-D ``[batch_size, hidden_size]`` of one dtype
    (fp16/bf16/fp32), stride 1 in the last dimension, any row strides, not overlapping;
    ``weight`` is ``[hidden_size]`` of that dtype or fp32. ``enable_pdl`` and ``static_weight`` as
    in :func:`rmsnorm`. Returns None.
    """
    if _is_compiling() or not _eager_fused(
        "fused_add_rmsnorm", input, residual, weight, eps, enable_pdl, static_weight
    ):
        _fused_add_rmsnorm_op(input, residual, weight, eps, enable_pdl, static_weight)


def gemma_fused_add_rmsnorm(
    input: torch.Tensor,
    residual: torch.Tensor,
    weight: torch.Tensor,
    eps: float = 1e-6,
    enable_pdl: Optional[bool] = None,
    *,
    static_weight: bool = False,
) -> None:
    r"""Gemma-style fused residual add + RMSNorm: as :func:`fused_add_rmsnorm` with
    ``(weight + 1)``. Returns None."""
    if _is_compiling() or not _eager_fused(
        "gemma_fused_add_rmsnorm", input, residual, weight, eps, enable_pdl, static_weight
    ):
        _gemma_fused_add_rmsnorm_op(input, residual, weight, eps, enable_pdl, static_weight)
