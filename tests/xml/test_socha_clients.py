"""The cached venvs of the official socha clients (tests/socha_clients.py) work."""

from __future__ import annotations

import subprocess

from tests.socha_clients import socha_client  # noqa: F401  (the fixture)


def test_a_socha_version_is_installed_once_and_imports(socha_client):  # noqa: F811
    python = socha_client("5.1.0")
    done = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m, socha; print(m.version('socha'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "5.1.0"
    assert socha_client("5.1.0") == python  # cached for the session
    assert (python.parent.parent / ".socha-installed").read_text().strip() == "5.1.0"
