"""The self-contained ``swc`` executable (``python -m tools.build_exe``) and a sandbox without Python.

CI builds ``dist/swc`` before the tests (.ci/run); a test that needs it asks :func:`built_swc`,
which builds it once (under a file lock, for the xdist workers) when it is missing or older than
a source file, so a test never runs against an executable of yesterday's code and never skips.
``SWC_EXE`` names another executable to test; then a missing file fails the test.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from tests.helpers import REPOSITORY

DEFAULT = REPOSITORY / "dist" / "swc"
SOURCE_FOLDERS = ("protocol", "games", "server", "client", "tools")
LIBRARIES = ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64", "/lib")
"""The system's shared libraries: bound read-only (a folder) or as the same symlink (merged /usr)."""
INSIDE = "/swc"


def _newest_source() -> float:
    """The newest change to what the executable is built from: the package's folders and the build's configuration."""
    files = [path for folder in SOURCE_FOLDERS for path in (REPOSITORY / folder).rglob("*")
             if path.is_file() and "__pycache__" not in path.parts]
    return max(path.stat().st_mtime for path in [*files, REPOSITORY / "setup.py", REPOSITORY / "pyproject.toml"])


def built_swc() -> Path:
    given = os.environ.get("SWC_EXE")
    if given:
        path = Path(given)
        assert path.is_file(), f"SWC_EXE={given}: no such executable (python -m tools.build_exe builds one)"
        return path
    DEFAULT.parent.mkdir(exist_ok=True)
    with open(DEFAULT.parent / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not DEFAULT.is_file() or DEFAULT.stat().st_mtime < _newest_source():
            from tools.build_exe import build

            build(DEFAULT)
    assert DEFAULT.is_file(), f"{DEFAULT} is missing after python -m tools.build_exe"
    return DEFAULT


def sandbox(executable: Path, *args: str, network: bool = False) -> list[str]:
    """A bubblewrap command that runs ``ARGS`` (``/swc ...``: the executable is bound there) with nothing but the executable and the system
    libraries: no /usr/bin, no /usr/local, no home, no Python; a fresh /tmp for the one-file
    bundle to unpack into; an empty PATH. ``network``: share the host's network (to reach the
    doors from outside), else its own loopback only."""
    command = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
               "--setenv", "PATH", "/nonexistent", "--setenv", "HOME", "/work",
               "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", "/work", "--chdir", "/work"]
    if network:
        command.append("--share-net")
    for path in LIBRARIES:
        if os.path.islink(path):
            command += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            command += ["--ro-bind", path, path]
    return [*command, "--ro-bind", str(executable), INSIDE, *args]
