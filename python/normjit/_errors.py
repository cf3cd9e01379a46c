"""Exception types raised by normjit. Importing this module needs neither torch nor the library."""

from __future__ import annotations

from typing import Optional

# normjit_status codes of include/normjit/normjit.h.
SUCCESS = 0
INVALID_ARGUMENT = 1
UNSUPPORTED = 2
CUDA = 3
COMPILE = 4
CACHE_MISS = 5
INTERNAL = 6
CACHE_WRITE = 7

STATUS_NAMES = {
    SUCCESS: "SUCCESS",
    INVALID_ARGUMENT: "INVALID_ARGUMENT",
    UNSUPPORTED: "UNSUPPORTED",
    CUDA: "CUDA",
    COMPILE: "COMPILE",
    CACHE_MISS: "CACHE_MISS",
    INTERNAL: "INTERNAL",
    CACHE_WRITE: "CACHE_WRITE",
}


class NormjitError(Exception):
    """Base class of every normjit error. ``status`` is the library's status code (None when the
    error was raised by the Python binding itself)."""

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.status = status

    @property
    def status_name(self) -> Optional[str]:
        return None if self.status is None else STATUS_NAMES.get(self.status, str(self.status))


class NormjitValueError(NormjitError, ValueError):
    """An argument problem (library status INVALID_ARGUMENT or UNSUPPORTED, or a check of the
    binding such as "expected a CUDA tensor"). Nothing was launched."""


class NormjitRuntimeError(NormjitError, RuntimeError):
    """A failure that is not the caller's arguments (library status CUDA, COMPILE, CACHE_MISS,
    INTERNAL or any other non-argument code): no driver / no GPU, an NVRTC compile, a cache miss
    in offline mode, an internal error, or a missing native library."""


class NormjitLibraryError(NormjitRuntimeError):
    """libnormjit could not be found or loaded (see NORMJIT_LIBRARY)."""


def error_for_status(status: int, message: str) -> NormjitError:
    if not message:
        message = f"normjit: failed with status {STATUS_NAMES.get(status, status)}"
    if status in (INVALID_ARGUMENT, UNSUPPORTED):
        return NormjitValueError(message, status)
    return NormjitRuntimeError(message, status)
