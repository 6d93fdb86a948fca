"""Replay the captured official Piranhas game through the server over TCP, byte for byte.

The official 19.2.1 server's three streams of one game (admin observer, red, blue) are in
``tests/data/piranhas_2019``.  We load the captured board, let the two players send the captured
moves, and compare every byte the three connections receive, modulo room id, reservation codes
and the admin stream's two ``joinedGameRoom`` lines caused by an unrelated client.
"""

from __future__ import annotations

import re
from pathlib import Path

import trio

from swc_local.games import registry
from swc_local.protocol.element import Element
from tests.helpers import TESTS
from tests.conftest import PASSWORD
from tests.wire import connect, data_class, messages

DATA = TESTS / "data" / "piranhas_2019"
PLUGIN = registry.get("swc_2019_piranhas")


def golden(name: str) -> bytes:
    return (DATA / f"game_seed2_{name}_recv.xml").read_bytes()


def captured_game():
    """The turn-0 state, the moves in order, and the ids used in the capture."""
    admin = messages(golden("admin_observer"))
    prepared = admin[0]
    red = messages(golden("red"))
    states = [m.find("data").find("state") for m in red if data_class(m) == "memento"]
    moves = [state.find("lastMove") for state in states[1:]]
    codes = [r.text for r in prepared.findall("reservation")]
    return states[0], moves, prepared.get("roomId"), codes


async def play_seat(connection, moves: list[Element]) -> None:
    """Answer every move request with the next captured move until ``left``."""
    while True:
        message = await connection.receive()
        if message.tag == "left":
            return
        if data_class(message) == "sc.framework.plugins.protocol.MoveRequest":
            move = moves.pop(0)
            data = Element("data", {"class": "move", **{k: v for k, v in move.attrs.items() if k != "class"}}, move.children)
            await connection.send(Element("room", {"roomId": message.get("roomId")}, [data]))
        elif message.tag == "room" and data_class(message) == "memento":
            pass


async def test_the_captured_game_is_reproduced_byte_for_byte(start_server):
    first_state, moves, golden_room, golden_codes = captured_game()
    server = await start_server(game_factory=lambda plugin, rng: plugin.game_from_state(first_state))

    admin, admin_bytes = await connect(server.door("xml").port)
    await admin.send(f'<authenticate passphrase="{PASSWORD}"/>')
    await admin.send(
        '<prepare gameType="swc_2019_piranhas">'
        '<slot displayName="Alice" canTimeout="true" shouldBePaused="false"/>'
        '<slot displayName="Bob" canTimeout="true" shouldBePaused="false"/></prepare>'
    )
    prepared = await admin.receive()
    room_id = prepared.get("roomId")
    codes = [r.text for r in prepared.findall("reservation")]
    await admin.send(f'<observe roomId="{room_id}"/>')
    assert (await admin.receive()).tag == "observed"

    red, red_bytes = await connect(server.door("xml").port)
    blue, blue_bytes = await connect(server.door("xml").port)
    await red.send(f'<joinPrepared reservationCode="{codes[0]}"/>')
    await trio.sleep(0.05)
    await blue.send(f'<joinPrepared reservationCode="{codes[1]}"/>')

    red_moves = moves[0::2]
    blue_moves = moves[1::2]

    async def observe() -> None:
        while (await admin.receive()).tag != "left":
            pass

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_seat, red, red_moves)
            nursery.start_soon(play_seat, blue, blue_moves)
            nursery.start_soon(observe)
    assert red_moves == [] and blue_moves == []

    def normalise(stream: bytes) -> bytes:
        stream = stream.replace(room_id.encode(), golden_room.encode())
        for ours, theirs in zip(codes, golden_codes):
            stream = stream.replace(ours.encode(), theirs.encode())
        return stream

    admin_golden = re.sub(rb'\n  <joinedGameRoom roomId="[^"]*" existing="(true|false)"/>', b"", golden("admin_observer"))
    assert len(red_bytes.received) > 300_000
    assert normalise(bytes(red_bytes.received)) == golden("red")
    assert normalise(bytes(blue_bytes.received)) == golden("blue")
    assert normalise(bytes(admin_bytes.received)) == admin_golden
    for connection in (admin, red, blue):
        await connection.close()
