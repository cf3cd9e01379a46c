"""normjit: JIT-compiled CUDA normalization kernels with FlashInfer's ``flashinfer.norm`` API.

``import normjit`` works without a GPU, without the native library and without torch; the
library (libnormjit.so) is located and loaded at the first op call (see ``normjit._library`` for
the search order; ``NORMJIT_LIBRARY`` overrides it).
"""

from ._errors import (
    NormjitError,
    NormjitLibraryError,
    NormjitRuntimeError,
    NormjitValueError,
)
from . import norm
from .norm import fused_add_rmsnorm, gemma_fused_add_rmsnorm, gemma_rmsnorm, rmsnorm

from ._version import __version__

__all__ = [
    "rmsnorm",
    "gemma_rmsnorm",
    "fused_add_rmsnorm",
    "gemma_fused_add_rmsnorm",
    "NormjitError",
    "NormjitValueError",
    "NormjitRuntimeError",
    "NormjitLibraryError",
    "library_path",
    "library_version",
    "is_library_available",
    "norm",
]


def library_path() -> str:
    """Path of the loaded libnormjit (loads it; raises NormjitLibraryError when it is missing)."""
    from . import _library

    return _library.get().path


def library_version() -> str:
    """normjit_version() of the loaded library (loads it)."""
    from . import _library

    return _library.get().version


def is_library_available() -> bool:
    """True when libnormjit can be found and loaded. Says nothing about a GPU or driver."""
    from . import _library

    return _library.is_available()
