"""Captured scenarios of the official 2018 (Hase und Igel) server, replayed byte for byte.

The lobby is the same as 2019's; these captures check it again with the 2018 game: a full game
between two ``join`` clients, an invalid move (the error echoes the move), a disconnect, an admin
that prepares, observes, steps and pauses, and the lobby abuse cases.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import TESTS
from tests.scenario import replay_capture

FOLDER = TESTS / "data" / "hase_und_igel_2018"


@pytest.mark.parametrize("name", ["game18", "invalid18", "disconnect18", "admin", "malformed"])
async def test_captured_scenario(start_server, name):
    await replay_capture(start_server, FOLDER, name)
