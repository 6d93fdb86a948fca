"""Captured lobby and fault scenarios of the official 2019 server, replayed byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import TESTS
from tests.scenario import replay_capture

FOLDER = TESTS / "data" / "piranhas_2019" / "scenarios"


@pytest.mark.parametrize("name", ["malformed", "invalid19", "disconnect19", "admin"])
async def test_captured_scenario(start_server, name):
    await replay_capture(start_server, FOLDER, name)


@pytest.mark.parametrize("name", ["softtimeout", "hardtimeout"])
async def test_captured_timeout(start_server, mock_clock, name):
    """The 2 s soft and 10 s hard timeouts, on a virtual clock that jumps while all wait."""
    mock_clock.autojump_threshold = 0.1
    await replay_capture(start_server, FOLDER, name, timed=True)
