"""Locating and loading libnormjit through its C ABI (ctypes). Needs no torch and no GPU.

Search order (the first that exists is loaded; nothing happens at import time):

1. ``$NORMJIT_LIBRARY``: a path to ``libnormjit.so*`` or to a folder holding one. When it is set,
   nothing else is tried, so a wrong value is an error rather than a silent fallback.
2. ``normjit/_lib/libnormjit.so*`` next to this file (where ``pip install`` of a wheel that bundles
   the library, or the CMake install rule of ``python/CMakeLists.txt``, puts it).
3. The system loader (``LD_LIBRARY_PATH``, ``ldconfig``): ``libnormjit.so.<major>.<minor>``, then
   ``libnormjit.so``, e.g. after ``cmake --install`` of the C++ library into a system prefix.
"""

from __future__ import annotations

import ctypes
import glob
import os
import threading
import warnings
from typing import List, Optional, Tuple

from ._errors import NormjitLibraryError, error_for_status
from ._version import __version__

ENV_VAR = "NORMJIT_LIBRARY"
PACKAGE_LIB_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_lib")
# major.minor of the C ABI this binding was written against: the package's own (it was a copy that
# stayed at 0.1 when the library went to 0.2, so every load warned).
ABI_VERSION = tuple(int(p) for p in __version__.split(".")[:2])
MAX_DIMS = 8
# Names handed to the system loader (dlopen) when neither NORMJIT_LIBRARY nor normjit/_lib/ has one.
SYSTEM_NAMES = (f"libnormjit.so.{ABI_VERSION[0]}.{ABI_VERSION[1]}", "libnormjit.so")


class NormjitTensor(ctypes.Structure):
    """``normjit_tensor`` of normjit.h (strides in elements). The binding fills these bytes with
    ``struct.pack_into`` for speed; this definition documents and checks the layout."""

    _fields_ = [
        ("data", ctypes.c_void_p),
        ("dtype", ctypes.c_int32),
        ("ndim", ctypes.c_int32),
        ("shape", ctypes.c_int64 * MAX_DIMS),
        ("stride", ctypes.c_int64 * MAX_DIMS),
        ("device", ctypes.c_int32),
    ]


TENSOR_SIZE = ctypes.sizeof(NormjitTensor)  # 152 on LP64

_P = ctypes.c_void_p
_SIGNATURES = {
    # name: (argtypes, restype)
    "normjit_rmsnorm": ([_P, _P, ctypes.c_double, _P, _P, ctypes.c_int], ctypes.c_int),
    "normjit_gemma_rmsnorm": ([_P, _P, ctypes.c_double, _P, _P, ctypes.c_int], ctypes.c_int),
    "normjit_fused_add_rmsnorm": ([_P, _P, _P, ctypes.c_double, _P, ctypes.c_int], ctypes.c_int),
    "normjit_gemma_fused_add_rmsnorm": (
        [_P, _P, _P, ctypes.c_double, _P, ctypes.c_int],
        ctypes.c_int,
    ),
    "normjit_last_error": ([], ctypes.c_char_p),
    "normjit_version": ([], ctypes.c_char_p),
}
_ATTR = {"normjit_version": "version_fn"}


class Library:
    """A loaded libnormjit: the ctypes functions of the C ABI, resolved once."""

    def __init__(self, handle: ctypes.CDLL, path: str):
        self.handle = handle
        self.path = path
        for name, (argtypes, restype) in _SIGNATURES.items():
            try:
                fn = getattr(handle, name)
            except AttributeError:
                raise NormjitLibraryError(
                    f"normjit: {path} does not export {name}: it is not a libnormjit matching "
                    f"this Python package (ABI {ABI_VERSION[0]}.{ABI_VERSION[1]}); rebuild it or "
                    f"point {ENV_VAR} at a matching one"
                ) from None
            fn.argtypes = argtypes
            fn.restype = restype
            setattr(self, _ATTR.get(name, name[len("normjit_"):]), fn)
        raw = self.version_fn()  # type: ignore[attr-defined]
        self.version = (raw or b"").decode("utf-8", "replace")
        _check_version(self.version, path)

    def error(self, status: int):
        """The exception for a failed call, with the library's message for this thread."""
        msg = self.last_error()  # type: ignore[attr-defined]
        return error_for_status(status, msg.decode("utf-8", "replace") if msg else "")


def _check_version(version: str, path: str) -> None:
    try:
        major, minor = (int(p) for p in version.split(".")[:2])
    except ValueError:
        return
    if (major, minor) != ABI_VERSION:
        warnings.warn(
            f"normjit: {path} is version {version}; this Python package was written for "
            f"{ABI_VERSION[0]}.{ABI_VERSION[1]}.x",
            RuntimeWarning,
            stacklevel=3,
        )


def _in_dir(folder: str) -> List[str]:
    """libnormjit.so first, then versioned names (longest version string first)."""
    exact = os.path.join(folder, "libnormjit.so")
    found = [exact] if os.path.isfile(exact) else []
    versioned = sorted(glob.glob(os.path.join(folder, "libnormjit.so.*")), key=len, reverse=True)
    return found + [p for p in versioned if os.path.isfile(p)]


def candidates() -> Tuple[Optional[str], List[str], List[str]]:
    """(the NORMJIT_LIBRARY value or None, files found in the package, system loader names)."""
    env = os.environ.get(ENV_VAR) or None
    return env, _in_dir(PACKAGE_LIB_DIR), list(SYSTEM_NAMES)


def _open(path: str) -> ctypes.CDLL:
    return ctypes.CDLL(path, mode=getattr(os, "RTLD_LOCAL", 0) | getattr(os, "RTLD_NOW", 2))


def _load() -> Library:
    env, bundled, system = candidates()
    if env is not None:
        target = env
        if os.path.isdir(env):
            inside = _in_dir(env)
            if not inside:
                raise NormjitLibraryError(
                    f"normjit: {ENV_VAR}={env} is a folder without libnormjit.so*"
                )
            target = inside[0]
        elif not os.path.exists(env):
            raise NormjitLibraryError(
                f"normjit: {ENV_VAR}={env}: no such file (it must name libnormjit.so or the "
                f"folder holding it)"
            )
        try:
            return Library(_open(target), target)
        except OSError as e:
            raise NormjitLibraryError(f"normjit: {ENV_VAR}={env}: cannot load it: {e}") from None

    tried = [f"{ENV_VAR}: not set"]
    for path in bundled:
        try:
            return Library(_open(path), path)
        except OSError as e:
            tried.append(f"{path}: {e}")
    if not bundled:
        tried.append(f"{os.path.join(PACKAGE_LIB_DIR, 'libnormjit.so*')}: not present")
    for name in system:
        try:
            handle = _open(name)
        except OSError as e:
            tried.append(f"{name} (system loader): {e}")
            continue
        return Library(handle, _resolved_path(handle, name))
    raise NormjitLibraryError(
        "normjit: cannot find the native library libnormjit.so. Set "
        f"{ENV_VAR}=/path/to/libnormjit.so (e.g. build/libnormjit.so of a CMake build), or "
        "install the Python package together with the library (python/README.md). Tried:\n  "
        + "\n  ".join(tried)
    )


def _resolved_path(handle: ctypes.CDLL, name: str) -> str:
    """The file the system loader picked (via dladdr), or the name it was asked for."""
    try:

        class _DlInfo(ctypes.Structure):
            _fields_ = [
                ("dli_fname", ctypes.c_char_p),
                ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p),
                ("dli_saddr", ctypes.c_void_p),
            ]

        libc = ctypes.CDLL(None)
        info = _DlInfo()
        addr = ctypes.cast(handle.normjit_version, ctypes.c_void_p)
        if libc.dladdr(addr, ctypes.byref(info)) and info.dli_fname:
            return os.path.realpath(info.dli_fname.decode())
    except Exception:  # pragma: no cover - diagnostics only
        pass
    return name


_lock = threading.Lock()
_library: Optional[Library] = None


def get() -> Library:
    """The loaded library (loaded at the first call; a failure is raised again next time)."""
    global _library
    lib = _library
    if lib is not None:
        return lib
    with _lock:
        if _library is None:
            _library = _load()
        return _library


def is_available() -> bool:
    """True when libnormjit can be loaded (says nothing about a GPU being present)."""
    try:
        get()
        return True
    except NormjitLibraryError:
        return False


def _reset_for_tests() -> None:
    """Forget the loaded library so the next call searches again (tests only)."""
    global _library
    with _lock:
        _library = None
