"""Captured lobby and fault scenarios of the official 2019 server, replayed byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol import element
from tests.scenario import Replay, load
from tests.wire import messages, data_class

FOLDER = Path(__file__).parent / "data" / "piranhas_2019" / "scenarios"


def first_state(clients) -> element.Element | None:
    for client in clients.values():
        for message in messages(client.golden):
            if data_class(message) == "memento":
                return message.find("data").find("state")
    return None


@pytest.mark.parametrize("name", ["malformed", "invalid19", "disconnect19", "admin"])
async def test_captured_scenario(start_server, name):
    actions, clients = load(FOLDER, name)
    state = first_state(clients)
    factory = (lambda plugin, rng: plugin.game_from_state(state)) if state is not None else None
    server = await start_server(game_factory=factory, password="examplepassword")
    replay = Replay(server.port, actions, clients, timed=False)
    await replay.run()
    for client in clients.values():
        assert replay.normalised(client) == client.golden, client.name


@pytest.mark.parametrize("name", ["softtimeout", "hardtimeout"])
async def test_captured_timeout(start_server, mock_clock, name):
    """The 2 s soft and 10 s hard timeouts, on a virtual clock that jumps while all wait."""
    mock_clock.autojump_threshold = 0.1
    actions, clients = load(FOLDER, name)
    state = first_state(clients)
    server = await start_server(game_factory=lambda plugin, rng: plugin.game_from_state(state))
    replay = Replay(server.port, actions, clients, timed=True)
    await replay.run()
    for client in clients.values():
        assert replay.normalised(client) == client.golden, client.name
