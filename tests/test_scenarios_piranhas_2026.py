"""Captured scenarios of the official Piranhas 2026 server (26.1.0), replayed over TCP byte for byte.

Each scenario runs against a fresh server whose rooms start from the captured board (the
official boards are unseeded), with the clients sending what they sent, in the captured order;
every connection must receive the captured bytes, room ids and reservation codes mapped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scenario import replay_capture

FOLDER = Path(__file__).parent / "data" / "piranhas_2026"
ENDGAMES = FOLDER / "endgames"

RAW_SCENARIOS = [
    "invalid_empty", "invalid_opponent", "invalid_jump", "invalid_bounds", "invalid_offboard",
    "invalid_format", "invalid_direction", "notyourturn", "disconnect",
]


@pytest.mark.parametrize("name", RAW_SCENARIOS)
async def test_captured_scenario(start_server, name):
    await replay_capture(start_server, FOLDER, name)


async def test_captured_lobby_errors(start_server):
    """Failing lobby requests.  ``joinPrepared``/``joinRoom`` with an unknown code or room show no
    dialect, so they are answered in the server's ``lobbyDialect``: a server for the modern games
    sets it to ``modern`` (with the default ``classic`` those two get the 2019 answer, a close)."""

    async def modern_server(**settings):
        return await start_server(lobby_dialect="modern", **settings)

    await replay_capture(modern_server, FOLDER, "lobby")


@pytest.mark.parametrize("name", sorted(p.name for p in ENDGAMES.iterdir() if p.is_dir()))
async def test_captured_endgame(start_server, name):
    await replay_capture(start_server, ENDGAMES, name)


@pytest.mark.parametrize("name", ["softtimeout", "hardtimeout"])
async def test_captured_timeout(start_server, mock_clock, name):
    """The 2 s soft and 10 s hard timeouts, on a virtual clock that jumps while all wait."""
    mock_clock.autojump_threshold = 0.1
    await replay_capture(start_server, FOLDER, name, timed=True)
