"""People at the table through the API: a person's seat of every XML game against its reference bot.

Each game of the registry's XML family is played to its end by a script that takes a seat with
``POST /api/tables`` and sends legal moves by index (``POST /api/seats/ID/move``), as the page
does; a new XML game is covered as soon as it is in the registry.
"""

from __future__ import annotations

import random

import pytest
import trio

from swc_local.games import registry

from .web_helpers import http, start_viewer_server

XML_GAMES = [g.game_type for g in registry.entries() if g.family.name == "xml"]


async def seat_state(url: str, seat: str, after: int) -> dict:
    status, data = await http(f"{url}/api/seats/{seat}?after={after}")
    assert status == 200, data
    return data


async def play_seat(url: str, seat: str, rng: random.Random) -> dict:
    """Play ``seat`` with random legal moves to the end; its last state."""
    data = await seat_state(url, seat, -1)
    while not data["over"]:
        if data["your_turn"]:
            assert data["moves"], data
            choice = rng.randrange(len(data["moves"]))
            status, data = await http(f"{url}/api/seats/{seat}/move", data=b'{"index": %d}' % choice,
                                      headers={"Content-Type": "application/json"})
            assert status == 200, data
        else:
            data = await seat_state(url, seat, data["version"])
    # the viewer's record of the room catches up with the result
    with trio.fail_after(10):
        while data["result_rows"] is None:
            await trio.sleep(0.05)
            data = await seat_state(url, seat, -1)
    return data


@pytest.mark.parametrize("game", XML_GAMES)
async def test_a_person_plays_a_whole_game_against_the_reference_bot(nursery, game):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    status, table = await http(f"{url}/api/tables", data=b'{"game": "%s", "seats": ["you", "bot"]}' % game.encode(),
                               headers={"Content-Type": "application/json"})
    assert status == 200, table
    seat = table["seats"][0]["seat"]
    with trio.fail_after(240):
        data = await play_seat(url, seat, random.Random(7))
    assert data["result"] is not None and data["error"] is None
    assert [row["cause"] for row in data["result_rows"]] == ["REGULAR", "REGULAR"], data["result_rows"]
    room = server.lobby.rooms.get(table["room"])
    assert room is None  # the room is over and gone


async def test_a_table_refuses_what_it_cannot_seat(nursery):
    server = await start_viewer_server(nursery)
    url = server.door("web").url
    for body, text in ((b'{"game": "reversixt"}', "XML game"), (b'{"game": "piranhas", "seats": ["you"]}', "two seats"),
                       (b'{"game": "piranhas", "seats": ["you", "wizard"]}', "one of"),
                       (b'{"game": "piranhas", "seats": ["you", {"kind": "command", "command": "x"}]}', "{reservation}")):
        status, data = await http(f"{url}/api/tables", data=body)
        assert status == 400 and text in data["error"], (body, data)
    status, data = await http(f"{url}/api/seats/nope")
    assert status == 404
