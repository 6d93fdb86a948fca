"""Captured scenarios of the official Hase und Igel 2025 server, replayed over TCP byte for byte.

Raw captures (``transcript_*.txt`` with ``*.raw``): an invalid hedgehog advance, an invalid card
list, and the endgames the capture started from constructed positions (goal after a full round,
both in the goal with a tie, the round limit, a skip followed by an invalid exchange). Proxied
socha captures (``hui_join``, ``hui_prepared``): two real socha 3.7.2 clients, all 60 turns, with
``<join/>`` and with an admin-prepared room (Alice and Bob); their exact sends are replayed and
every byte each client received must come back the same, modulo room ids.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import socha_capture
from tests.conftest import PASSWORD
from tests.scenario import replay_capture
from tests.wire import Raw, data_class, messages

FOLDER = Path(__file__).parent / "data" / "hase_und_igel_2025"
GAME = "swc_2025_hase_und_igel"


@pytest.mark.parametrize("folder, name", [
    (FOLDER, "hui_invalid_hedgehog"),
    (FOLDER, "hui_invalid_cards"),
    (FOLDER / "endgames", "end_goal_after_full_round"),
    (FOLDER / "endgames", "end_both_in_goal_tie"),
    (FOLDER / "endgames", "end_round_limit"),
    (FOLDER / "endgames", "skip_then_invalid"),
])
async def test_captured_raw_scenario(start_server, folder, name):
    async def start(**settings):
        return await start_server(default_game=GAME, **settings)

    await replay_capture(start, folder, name)


def _first_state(folder: Path):
    text = (folder / "ONE_recv.xml").read_bytes()
    for message in messages(text):
        if data_class(message) == "memento":
            return message.find("data").find("state")
    raise AssertionError("no memento in the capture")


async def _prepare(port: int, names: tuple[str, str]) -> dict[str, str]:
    admin = await Raw.connect(port)
    slots = "".join(f'<slot displayName="{name}" canTimeout="true" reserved="true"/>'
                    for name in names)
    await admin.send(f'<protocol><authenticate password="{PASSWORD}"/>'
                     f'<prepare gameType="{GAME}" pause="false">{slots}</prepare>')
    await admin.read_until(b"</prepared>")
    codes = re.findall(r"<reservation>([^<]*)</reservation>", bytes(admin.received).decode())
    return dict(zip(("ONE", "TWO"), codes))


@pytest.mark.parametrize("name", ["hui_join", "hui_prepared"])
async def test_captured_socha_game(start_server, name):
    folder = FOLDER / name
    state = _first_state(folder)
    server = await start_server(default_game=GAME,
                                game_factory=lambda plugin, rng: plugin.game_from_state(state))
    reservations = None
    if name == "hui_prepared":
        reservations = await _prepare(server.port, ("Alice", "Bob"))
    clients = await socha_capture.replay(server.port, folder, reservations)
    for team, client in clients.items():
        ours = socha_capture.normalise(bytes(client.received), client.golden)
        assert ours == client.golden, f"{name}: {team} received other bytes"
