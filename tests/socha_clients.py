"""The official ``socha`` Python clients from PyPI, each in a cached virtual environment.

The 2023+ games are played by students with the ``socha`` package (1.x for Penguins 2023, 2.x
for Mississippi Queen 2024, 3.x for Hase und Igel 2025, 4.x for Piranhas 2026, 5.x for Blokus
2027; the versions named in the specs are 1.0.8, 2.2.2, 3.7.2, 4.3.9 and 5.1.0).  A test that
wants to prove "the official client plays against us" needs that exact version, which must not
mix with this project's own environment (socha pins its own xsdata).  So every version gets its
own venv under ``.socha-clients/<version>/`` in the repository root (gitignored), created once
and reused by later runs; a file lock keeps parallel test processes from building the same one
twice.

Usage in a test module::

    from tests.socha_clients import socha_python, socha_client  # the fixture

    def test_it(socha_client):
        python = socha_client("5.1.0")      # Path of that venv's python
        subprocess.run([python, "my_bot.py", "--port", ...])

``socha_python(version)`` does the same without pytest (it raises :class:`SochaUnavailable`).
The tests may download from PyPI (the brief allows it for the official clients); the server
never does.  Set ``SWC_SOCHA_CACHE`` to keep the venvs elsewhere.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import venv
from collections.abc import Callable
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
KNOWN_VERSIONS = ("1.0.8", "2.2.2", "3.7.2", "4.3.9", "5.1.0")
INSTALL_TIMEOUT = 600


class SochaUnavailable(RuntimeError):
    """The venv could not be built (no network, PyPI refused, unknown version)."""


def cache_root() -> Path:
    return Path(os.environ.get("SWC_SOCHA_CACHE", REPOSITORY / ".socha-clients"))


def _python_of(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def socha_python(version: str) -> Path:
    """The python of a venv with ``socha==version`` installed; built on first use, then cached."""
    if not version or any(c not in "0123456789." for c in version):
        raise SochaUnavailable(f"not a socha version: {version!r}")
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    env = root / version
    marker = env / ".socha-installed"
    if marker.is_file():
        return _python_of(env)
    with open(root / f".{version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building it right now
        if marker.is_file():
            return _python_of(env)
        # socha's starter imports pkg_resources, which setuptools 81 removed (and 3.12+ venvs
        # come without setuptools at all)
        venv.EnvBuilder(with_pip=True, clear=True).create(env)
        python = _python_of(env)
        command = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", f"socha=={version}", "setuptools<81"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise SochaUnavailable(f"pip install socha=={version} took longer than {INSTALL_TIMEOUT} s") from None
        if done.returncode != 0:
            raise SochaUnavailable(f"pip install socha=={version} failed:\n{done.stderr[-2000:]}")
        check = subprocess.run([str(python), "-c", "import socha"], capture_output=True, text=True)
        if check.returncode != 0:
            raise SochaUnavailable(f"socha {version} installed but does not import:\n{check.stderr[-2000:]}")
        marker.write_text(version + "\n")
        return python


@pytest.fixture(scope="session")
def socha_client() -> Callable[[str], Path]:
    """``socha_client("4.3.9")`` -> the python of a venv with that socha installed.

    An unavailable client fails the test (CI reaches PyPI); on a machine without PyPI set
    ``SWC_SOCHA_OPTIONAL=1`` to skip those tests instead.
    """
    cache: dict[str, Path] = {}

    def get(version: str) -> Path:
        if version not in cache:
            try:
                cache[version] = socha_python(version)
            except SochaUnavailable as error:
                if not os.environ.get("SWC_SOCHA_OPTIONAL"):
                    raise
                pytest.skip(str(error))
        return cache[version]

    return get


if __name__ == "__main__":  # python -m tests.socha_clients 5.1.0: build the venvs ahead of time
    for requested in sys.argv[1:] or KNOWN_VERSIONS:
        print(requested, socha_python(requested))
