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
from tests.helpers import TESTS, prepare_codes
from tests.scenario import replay_capture
from swc_local.protocol.element import parse
from tests.wire import Raw, data_class, messages

FOLDER = TESTS / "data" / "hase_und_igel_2025"
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
    return dict(zip(("ONE", "TWO"), await prepare_codes(port, GAME, names, password=PASSWORD, can_timeout=False)))


@pytest.mark.parametrize("name", ["hui_join", "hui_prepared"])
async def test_captured_socha_game(start_server, name):
    """The captured game replayed byte for byte.  No move clock (``join_timeout`` off, prepared
    slots that cannot time out): the room times a move on the wall clock, and on a loaded machine
    the driver's move can come more than the 2 s soft limit after its request, which ended the
    game early (SOFT_TIMEOUT) where the capture plays on; no byte of the capture depends on it,
    and the move clock has tests of its own."""
    folder = FOLDER / name
    state = _first_state(folder)
    server = await start_server(default_game=GAME, sections={"xml": {"join_timeout": False}},
                                game_factory=lambda plugin, rng: plugin.game_from_state(state))
    reservations = None
    if name == "hui_prepared":
        reservations = await _prepare(server.door("xml").port, ("Alice", "Bob"))
    clients = await socha_capture.replay(server.door("xml").port, folder, reservations)
    for team, client in clients.items():
        ours = socha_capture.normalise(bytes(client.received), client.golden)
        assert ours == client.golden, f"{name}: {team} received other bytes"


async def test_cancel_scores_by_the_winner_rule(start_server):
    """An admin cancels a 2025 game at turn 1 with both hares in the goal (not over yet: the
    round is not complete): fewer carrots win, as ``winCondition`` says; the generic fallback
    (first ranking part, higher is better) would have picked the other hare."""
    state = parse(
        '<state class="state" startTeam="ONE" turn="1"><board>'
        + "".join(f"<field>{kind}</field>" for kind in _track_fields())
        + '</board><hare team="ONE" position="64" salads="0" carrots="8"><cards/></hare>'
        '<hare team="TWO" position="64" salads="0" carrots="5"><cards/></hare></state>')
    server = await start_server(default_game=GAME,
                                game_factory=lambda plugin, rng: plugin.game_from_state(state))
    admin = await Raw.connect(server.door("xml").port)
    await admin.send(f'<protocol><authenticate password="{PASSWORD}"/>')
    one, two = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
    await one.send("<protocol><join/>")
    await one.read_until(b"<joined")
    await two.send("<protocol><join/>")
    await two.read_until(b'class="moveRequest"')
    room_id = re.search(rb'roomId="([^"]+)"', bytes(two.received))[1].decode()
    await admin.send(f'<cancel roomId="{room_id}"/>')
    await one.read_until(b"<left")
    result = [m for m in messages(bytes(one.received)) if data_class(m) == "result"][0].find("data")
    parts = [[p.text for p in e.find("score").findall("part")]
             for e in result.find("scores").findall("entry")]
    assert parts == [["0", "64", "8"], ["2", "64", "5"]]
    assert result.find("winner").attrs == {
        "team": "TWO", "regular": "true", "reason": "TWO hat weniger Karotten uebrig."}


def _track_fields():
    from swc_local.games.hase_und_igel_2025 import track

    return track.from_letters("0HK2HK1KHMSIHKKI12MIKKS2IMHKK2IKKHH21IKKH2SIK2KHM1IMHK2KISHK1KHKZ")
