"""Availability probes shared by the test modules (importing this needs no torch), and the loader
of the repo's scripts that the script tests exercise."""

import ctypes
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
REPO = os.path.dirname(os.path.dirname(HERE))


def load_repo_script(relpath, module_name):
    """The module of a script under the repo root (e.g. scripts/late_loads.py), loaded by path:
    the scripts are not a package."""
    spec = importlib.util.spec_from_file_location(module_name, os.path.join(REPO, relpath))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

try:
    import torch  # noqa: F401

    HAVE_TORCH = True
    TORCH_ERROR = ""
except ImportError as e:  # pragma: no cover - depends on the environment
    torch = None
    HAVE_TORCH = False
    TORCH_ERROR = str(e)


def library_error():
    """'' when libnormjit loads, else why not."""
    from normjit import _library

    try:
        _library.get()
        return ""
    except Exception as e:  # NormjitLibraryError
        return str(e).splitlines()[0]


def have_cuda_driver() -> bool:
    """True when a CUDA driver library can be loaded in this process (a GPU may still be absent)."""
    try:
        ctypes.CDLL(os.environ.get("NORMJIT_LIBCUDA") or "libcuda.so.1")
        return True
    except OSError:
        return False


def have_gpu() -> bool:
    return HAVE_TORCH and torch.cuda.is_available()
