"""Fixtures the ReversiXT tests share."""

from __future__ import annotations

import pytest

from tests.reversixt_golden import MAPS


@pytest.fixture
def run_dir(tmp_path, monkeypatch):
    """A fresh working directory beside a ``maps`` link to the test maps, as the reference
    server is run from its build folder (``../maps/...``)."""
    (tmp_path / "maps").symlink_to(MAPS)
    (tmp_path / "run").mkdir()
    monkeypatch.chdir(tmp_path / "run")
    return tmp_path / "run"
