"""Tests that need neither a GPU nor torch (they always run, so CI never collects zero tests):
import, FlashInfer-compatible signatures, error types, library discovery, the C ABI struct and
status mapping (with fake pointers, validation only), and offline packaging."""

import ctypes
import importlib.util
import inspect
import os
import subprocess
import sys
import zipfile

import pytest

from _support import HAVE_TORCH, have_cuda_driver, library_error

import normjit
from normjit import _errors, _library

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# flashinfer.norm signatures (spec rmsnorm.md sections 2-5): (name, default or REQUIRED).
REQUIRED = inspect.Parameter.empty
FLASHINFER_SIGNATURES = {
    "rmsnorm": [("input", REQUIRED), ("weight", REQUIRED), ("eps", 1e-6), ("out", None),
                ("enable_pdl", None)],
    "gemma_rmsnorm": [("input", REQUIRED), ("weight", REQUIRED), ("eps", 1e-6), ("out", None),
                      ("enable_pdl", None)],
    "fused_add_rmsnorm": [("input", REQUIRED), ("residual", REQUIRED), ("weight", REQUIRED),
                          ("eps", 1e-6), ("enable_pdl", None)],
    "gemma_fused_add_rmsnorm": [("input", REQUIRED), ("residual", REQUIRED), ("weight", REQUIRED),
                                ("eps", 1e-6), ("enable_pdl", None)],
}
# Keyword-only options normjit adds after flashinfer's arguments.
NORMJIT_KEYWORDS = [("static_weight", False)]
RETURNS = {"rmsnorm": "Tensor", "gemma_rmsnorm": "Tensor", "fused_add_rmsnorm": "None",
           "gemma_fused_add_rmsnorm": "None"}


@pytest.fixture
def fresh_library(monkeypatch):
    """Let a test change NORMJIT_LIBRARY / the search path; the loaded library is restored after."""
    saved = _library._library
    _library._library = None
    yield monkeypatch
    monkeypatch.undo()
    _library._library = saved


# ---- import and API surface --------------------------------------------------------------------
def test_import_works_without_gpu_library_or_torch():
    env = dict(os.environ, NORMJIT_LIBRARY="/nonexistent/libnormjit.so", CUDA_VISIBLE_DEVICES="",
               PYTHONPATH=PACKAGE_ROOT)
    code = ("import sys; sys.modules['torch'] = None\n"  # make `import torch` fail
            "import normjit, normjit.norm\n"
            "from normjit import rmsnorm, gemma_rmsnorm, fused_add_rmsnorm, gemma_fused_add_rmsnorm\n"
            "print(normjit.__version__, normjit.is_library_available())")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [normjit.__version__, "False"]


def test_public_names():
    for name in FLASHINFER_SIGNATURES:
        assert getattr(normjit, name) is getattr(normjit.norm, name)
        assert name in normjit.__all__ and name in normjit.norm.__all__
    assert normjit.__version__.count(".") == 2


@pytest.mark.parametrize("name", sorted(FLASHINFER_SIGNATURES))
def test_signature_matches_flashinfer(name):
    sig = inspect.signature(getattr(normjit, name))
    positional = [p for p in sig.parameters.values() if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    assert [(p.name, p.default) for p in positional] == FLASHINFER_SIGNATURES[name]
    for p in positional:
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    # normjit's own options come after flashinfer's, keyword-only, so positional calls match.
    extra = [(p.name, p.default) for p in sig.parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    assert extra == NORMJIT_KEYWORDS
    assert RETURNS[name] in str(sig.return_annotation)


@pytest.mark.parametrize("name", sorted(FLASHINFER_SIGNATURES))
def test_signature_matches_installed_flashinfer(name):
    if importlib.util.find_spec("flashinfer") is None:
        pytest.skip("flashinfer is not installed")
    norm = pytest.importorskip("flashinfer.norm")
    theirs = inspect.signature(inspect.unwrap(getattr(norm, name)))
    ours = inspect.signature(getattr(normjit, name))
    assert [(p.name, p.default, p.kind) for p in ours.parameters.values()
            if p.kind is not inspect.Parameter.KEYWORD_ONLY] == [
        (p.name, p.default, p.kind) for p in theirs.parameters.values()]


def test_ops_need_torch_when_torch_is_missing():
    if HAVE_TORCH:
        pytest.skip("torch is installed; covered by test_torch_cpu.py")
    with pytest.raises(ImportError, match="torch"):
        normjit.rmsnorm(None, None)


# ---- errors ------------------------------------------------------------------------------------
def test_error_hierarchy():
    assert issubclass(normjit.NormjitValueError, ValueError)
    assert issubclass(normjit.NormjitRuntimeError, RuntimeError)
    assert issubclass(normjit.NormjitLibraryError, normjit.NormjitRuntimeError)
    for cls in (normjit.NormjitValueError, normjit.NormjitRuntimeError):
        assert issubclass(cls, normjit.NormjitError)


@pytest.mark.parametrize("status,cls", [
    (_errors.INVALID_ARGUMENT, normjit.NormjitValueError),
    (_errors.UNSUPPORTED, normjit.NormjitValueError),
    (_errors.CUDA, normjit.NormjitRuntimeError),
    (_errors.COMPILE, normjit.NormjitRuntimeError),
    (_errors.CACHE_MISS, normjit.NormjitRuntimeError),
    (_errors.INTERNAL, normjit.NormjitRuntimeError),
    (_errors.CACHE_WRITE, normjit.NormjitRuntimeError),
    (99, normjit.NormjitRuntimeError),
])
def test_status_mapping(status, cls):
    e = _errors.error_for_status(status, "normjit.rmsnorm: input: boom")
    assert type(e) is cls and e.status == status and str(e) == "normjit.rmsnorm: input: boom"
    assert "status" in str(_errors.error_for_status(status, ""))


# ---- library discovery -------------------------------------------------------------------------
def test_missing_library_is_a_clear_error_naming_the_variable(fresh_library, tmp_path):
    fresh_library.delenv("NORMJIT_LIBRARY", raising=False)
    fresh_library.setattr(_library, "PACKAGE_LIB_DIR", str(tmp_path))
    fresh_library.setattr(_library, "SYSTEM_NAMES", ("libnormjit-does-not-exist.so",))
    with pytest.raises(normjit.NormjitLibraryError) as info:
        normjit.library_path()
    msg = str(info.value)
    assert "NORMJIT_LIBRARY" in msg and "libnormjit" in msg and str(tmp_path) in msg
    assert isinstance(info.value, RuntimeError)
    assert normjit.is_library_available() is False


def test_library_variable_pointing_nowhere(fresh_library, tmp_path):
    fresh_library.setenv("NORMJIT_LIBRARY", str(tmp_path / "nope.so"))
    with pytest.raises(normjit.NormjitLibraryError, match="NORMJIT_LIBRARY=.*no such file"):
        normjit.library_path()
    fresh_library.setenv("NORMJIT_LIBRARY", str(tmp_path))
    with pytest.raises(normjit.NormjitLibraryError, match="folder without libnormjit"):
        normjit.library_path()
    bad = tmp_path / "libnormjit.so"
    bad.write_text("not an ELF file")
    with pytest.raises(normjit.NormjitLibraryError, match="NORMJIT_LIBRARY=.*cannot load"):
        normjit.library_path()


needs_library = pytest.mark.skipif(bool(library_error()), reason=f"libnormjit not loadable "
                                   f"(set NORMJIT_LIBRARY): {library_error()}")


@needs_library
def test_library_loads_and_reports_version():
    v = normjit.library_version()
    assert v.split(".")[:2] == normjit.__version__.split(".")[:2]
    assert os.path.exists(normjit.library_path())
    # A matching library loads without the version warning.
    r = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c",
                        "import normjit; print(normjit.library_version())"],
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=PACKAGE_ROOT, NORMJIT_LIBRARY=normjit.library_path()))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == v


@needs_library
def test_library_variable_may_name_a_folder(fresh_library):
    path = _library.get().path
    _library._library = None
    fresh_library.setenv("NORMJIT_LIBRARY", os.path.dirname(os.path.abspath(path)))
    assert os.path.dirname(normjit.library_path()) == os.path.dirname(os.path.abspath(path))


@needs_library
def test_library_bundled_in_package_folder(fresh_library, tmp_path):
    import shutil

    src = os.path.realpath(_library.get().path)
    _library._library = None
    shutil.copy(src, tmp_path / "libnormjit.so")
    fresh_library.delenv("NORMJIT_LIBRARY", raising=False)
    fresh_library.setattr(_library, "PACKAGE_LIB_DIR", str(tmp_path))
    assert normjit.library_path() == str(tmp_path / "libnormjit.so")


# ---- the C ABI, with fake device pointers (validation happens before any driver call) ----------
def _tensor(shape, dtype=1, data=0x100000, device=0):
    t = _library.NormjitTensor()
    t.data, t.dtype, t.ndim, t.device = data, dtype, len(shape), device
    stride = 1
    for i in reversed(range(len(shape))):
        t.shape[i], t.stride[i] = shape[i], stride
        stride *= shape[i]
    return t


def test_tensor_struct_layout():
    T = _library.NormjitTensor
    assert ctypes.sizeof(T) == 152
    assert (T.data.offset, T.dtype.offset, T.ndim.offset, T.shape.offset, T.stride.offset,
            T.device.offset) == (0, 8, 12, 16, 80, 144)


@needs_library
def test_c_abi_validation_error_is_value_error_with_library_message():
    lib = _library.get()
    x, w, o = _tensor([4, 64], dtype=6), _tensor([64], data=0x200000), _tensor([4, 64], data=0x300000)
    status = lib.rmsnorm(ctypes.addressof(x), ctypes.addressof(w), 1e-6, ctypes.addressof(o), None, -1)
    assert status == _errors.INVALID_ARGUMENT
    err = lib.error(status)
    assert isinstance(err, normjit.NormjitValueError)
    assert str(err).startswith("normjit.rmsnorm: input: expected dtype")
    r = _tensor([4, 65], data=0x400000)
    status = lib.fused_add_rmsnorm(ctypes.addressof(_tensor([4, 64])), ctypes.addressof(r),
                                   ctypes.addressof(w), 1e-6, None, -1)
    assert status == _errors.INVALID_ARGUMENT and "residual" in str(lib.error(status))


@needs_library
def test_c_abi_without_gpu_is_runtime_error_naming_the_driver():
    if have_cuda_driver():
        pytest.skip("a CUDA driver is present: fake pointers must not reach a launch")
    lib = _library.get()
    x, w, o = _tensor([4, 64]), _tensor([64], data=0x200000), _tensor([4, 64], data=0x300000)
    status = lib.rmsnorm(ctypes.addressof(x), ctypes.addressof(w), 1e-6, ctypes.addressof(o), None, -1)
    assert status == _errors.CUDA
    err = lib.error(status)
    assert isinstance(err, normjit.NormjitRuntimeError) and "driver" in str(err)


# ---- packaging (offline, no setuptools needed) ------------------------------------------------
def _backend():
    spec = importlib.util.spec_from_file_location(
        "normjit_backend_under_test", os.path.join(PACKAGE_ROOT, "_build_backend", "normjit_backend.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_build_backend_writes_a_valid_wheel(tmp_path):
    import base64
    import hashlib

    be = _backend()
    assert be.get_requires_for_build_wheel() == []
    name = be.build_wheel(str(tmp_path))
    assert name.startswith(f"normjit-{normjit.__version__}-py3-none-")
    with zipfile.ZipFile(tmp_path / name) as z:
        names = set(z.namelist())
        for f in ("normjit/__init__.py", "normjit/norm.py", "normjit/_ops.py",
                  "normjit/_library.py", "normjit/_errors.py"):
            assert f in names
        dist = f"normjit-{normjit.__version__}.dist-info"
        meta = z.read(f"{dist}/METADATA").decode()
        assert "Name: normjit" in meta and f"Version: {normjit.__version__}" in meta
        for line in z.read(f"{dist}/RECORD").decode().splitlines():
            path, digest, size = line.split(",")
            if not digest:
                continue
            data = z.read(path)
            assert int(size) == len(data)
            assert digest == "sha256=" + base64.urlsafe_b64encode(
                hashlib.sha256(data).digest()).rstrip(b"=").decode()
    editable = be.build_editable(str(tmp_path / "e"))
    with zipfile.ZipFile(tmp_path / "e" / editable) as z:
        assert z.read("__editable__.normjit.pth").decode().strip() == PACKAGE_ROOT
    assert be.build_sdist(str(tmp_path / "s")).endswith(".tar.gz")


@pytest.mark.parametrize("isolation", [True, False], ids=["isolated", "no-build-isolation"])
def test_pip_installs_offline(tmp_path, isolation):
    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip is not available")
    target = tmp_path / "site"
    cmd = [sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--no-cache-dir",
           "--disable-pip-version-check", "--target", str(target), PACKAGE_ROOT]
    if not isolation:
        cmd.insert(4, "--no-build-isolation")
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_FIND_LINKS="")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (target / "normjit" / "norm.py").is_file()
    assert (target / "normjit" / "_lib").is_dir() or True  # _lib has files only when bundled
