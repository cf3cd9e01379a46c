"""A PEP 517 / PEP 660 build backend for the pure-Python normjit package, using only the standard
library, so that ``pip install ./python`` works offline and needs no setuptools or wheel
(pyproject.toml declares ``requires = []``; pip's isolated build environment then needs nothing
from an index).

What goes into the wheel: ``normjit/**/*.py`` and ``normjit/py.typed``, plus any
``normjit/_lib/libnormjit.so*`` present at build time (copy a built library there to ship it; the
wheel is then tagged for this platform instead of ``py3-none-any``). Metadata comes from the
``[project]`` table of pyproject.toml.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import sysconfig
import tarfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "normjit"
_EPOCH = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))  # 1980-01-01: reproducible zips


# ---- pyproject.toml -----------------------------------------------------------------------------
def _read_pyproject() -> dict:
    path = os.path.join(ROOT, "pyproject.toml")
    with open(path, "rb") as f:
        data = f.read()
    try:
        import tomllib  # Python 3.11+
    except ImportError:  # pragma: no cover - older Pythons
        return _mini_toml(data.decode("utf-8"))
    return tomllib.loads(data.decode("utf-8"))


def _mini_toml(text: str) -> dict:
    """Just enough TOML for this project's pyproject.toml: tables, strings, string arrays."""
    out: dict = {}
    table = out
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip() if '"' not in raw else raw.strip()
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"\[([A-Za-z0-9_.\-]+)\]", line)
        if m:
            table = out
            for part in m.group(1).split("."):
                table = table.setdefault(part, {})
            continue
        m = re.fullmatch(r'([A-Za-z0-9_\-]+)\s*=\s*(.+)', line)
        if not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if value.startswith('"'):
            table[key] = value.strip('"')
        elif value.startswith("["):
            table[key] = re.findall(r'"([^"]*)"', value)
    return out


def _project() -> dict:
    return _read_pyproject()["project"]


def _dist_name() -> str:
    return re.sub(r"[-_.]+", "_", _project()["name"]).lower()


def _metadata() -> str:
    p = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {p['name']}",
        f"Version: {p['version']}",
    ]
    if p.get("description"):
        lines.append(f"Summary: {p['description']}")
    if p.get("requires-python"):
        lines.append(f"Requires-Python: {p['requires-python']}")
    for dep in p.get("dependencies", []):
        lines.append(f"Requires-Dist: {dep}")
    for extra, deps in p.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        for dep in deps:
            lines.append(f'Requires-Dist: {dep}; extra == "{extra}"')
    body = ""
    readme = p.get("readme")
    if isinstance(readme, str) and os.path.isfile(os.path.join(ROOT, readme)):
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


# ---- files -------------------------------------------------------------------------------------
def _package_files():
    """(path in the archive, path on disk) of every file the wheel holds."""
    pkg = os.path.join(ROOT, PACKAGE)
    for folder, dirs, files in os.walk(pkg):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            full = os.path.join(folder, name)
            rel = os.path.relpath(full, ROOT).replace(os.sep, "/")
            in_lib = os.path.basename(folder) == "_lib"
            if name.endswith(".py") or name == "py.typed":
                yield rel, full
            elif in_lib and name.startswith("libnormjit.so") and os.path.isfile(full):
                yield rel, full  # symlinks are stored as the file they point to


def _has_native(files) -> bool:
    return any("/_lib/libnormjit.so" in rel for rel, _ in files)


def _tag(native: bool) -> str:
    if not native:
        return "py3-none-any"
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{plat}"


# ---- wheel writing -----------------------------------------------------------------------------
class _Wheel:
    def __init__(self, path: str):
        self.zip = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED)
        self.record = []

    def add(self, arcname: str, data: bytes, executable: bool = False) -> None:
        info = zipfile.ZipInfo(arcname, date_time=time.gmtime(_EPOCH)[:6])
        info.external_attr = (0o755 if executable else 0o644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.record.append(f"{arcname},sha256={digest},{len(data)}")

    def close(self, dist_info: str) -> None:
        record_name = f"{dist_info}/RECORD"
        self.record.append(f"{record_name},,")
        info = zipfile.ZipInfo(record_name, date_time=time.gmtime(_EPOCH)[:6])
        info.external_attr = 0o644 << 16
        self.zip.writestr(info, "\n".join(self.record) + "\n")
        self.zip.close()


def _write_wheel(wheel_directory: str, editable: bool) -> str:
    p = _project()
    name, version = _dist_name(), p["version"]
    files = [] if editable else list(_package_files())
    native = _has_native(files)
    tag = _tag(native)
    filename = f"{name}-{version}-{tag}.whl"
    dist_info = f"{name}-{version}.dist-info"
    os.makedirs(wheel_directory, exist_ok=True)
    w = _Wheel(os.path.join(wheel_directory, filename))
    try:
        if editable:
            # PEP 660: a .pth file that puts this source folder (python/) on sys.path.
            w.add(f"__editable__.{name}.pth", (ROOT + "\n").encode())
        for arcname, full in files:
            with open(full, "rb") as f:
                w.add(arcname, f.read(), executable=arcname.endswith((".so",)) or ".so." in arcname)
        w.add(f"{dist_info}/METADATA", _metadata().encode("utf-8"))
        w.add(
            f"{dist_info}/WHEEL",
            (
                "Wheel-Version: 1.0\nGenerator: normjit_backend\n"
                f"Root-Is-Purelib: {'false' if native else 'true'}\nTag: {tag}\n"
            ).encode(),
        )
        w.add(f"{dist_info}/top_level.txt", f"{PACKAGE}\n".encode())
    finally:
        w.close(dist_info)
    return filename


# ---- PEP 517 / 660 hooks -----------------------------------------------------------------------
def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    p = _project()
    dist_info = f"{_dist_name()}-{p['version']}.dist-info"
    folder = os.path.join(metadata_directory, dist_info)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    return dist_info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, editable=False)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, editable=True)


def build_sdist(sdist_directory, config_settings=None):
    p = _project()
    base = f"{_dist_name()}-{p['version']}"
    filename = f"{base}.tar.gz"
    os.makedirs(sdist_directory, exist_ok=True)
    members = ["pyproject.toml", "README.md", "_build_backend/normjit_backend.py"]
    members += [rel for rel, _ in _package_files() if rel.endswith((".py", "py.typed"))]
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for rel in members:
            full = os.path.join(ROOT, rel)
            if not os.path.isfile(full):
                continue
            with open(full, "rb") as f:
                data = f.read()
            info = tarfile.TarInfo(f"{base}/{rel}")
            info.size, info.mtime, info.mode = len(data), _EPOCH, 0o644
            tar.addfile(info, io.BytesIO(data))
        pkg_info = _metadata().encode("utf-8")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size, info.mtime, info.mode = len(pkg_info), _EPOCH, 0o644
        tar.addfile(info, io.BytesIO(pkg_info))
    return filename
