"""The client library over real sockets: typed messages, moves, errors, and the blocking form."""

from __future__ import annotations

import pytest
import trio

from swc_local.client.blocking import connect_client
from swc_local.client.client import Client
from swc_local.client.messages import Error, Joined, Left, Memento, MoveRequest, Result, Welcome
from swc_local.games import registry
from swc_local.protocol.element import Element

PIRANHAS = registry.get("swc_2019_piranhas")


async def test_two_clients_play_a_game_with_typed_messages(server):
    seen: dict[str, list[type]] = {"red": [], "blue": []}

    async def player(name: str, delay: float) -> Result | None:
        await trio.sleep(delay)
        async with await Client.connect("127.0.0.1", server.door("xml").port, "piranhas") as client:
            await client.join()
            async for message in client:
                seen[name].append(type(message))
                if isinstance(message, Memento):
                    assert message.game.turn == message.turn
                if isinstance(message, MoveRequest):
                    game = client.memento.game
                    assert game.current_seat == client.seat
                    await client.send_move(PIRANHAS.legal_moves(game)[0])
            return client.result

    results = []
    async with trio.open_nursery() as nursery:
        for name, delay in (("red", 0), ("blue", 0.05)):
            async def run(name=name, delay=delay):
                results.append(await player(name, delay))
            nursery.start_soon(run)
    assert seen["red"][:4] == [Joined, Welcome, Memento, MoveRequest]
    assert seen["blue"][:3] == [Joined, Welcome, Memento]
    for kinds in seen.values():
        assert kinds[-2:] == [Result, Left]
    assert results[0] == results[1] and results[0] is not None
    assert [score.cause for score in results[0].scores] == ["REGULAR", "REGULAR"]
    assert results[0].fragments == ("Gewinner", "\u2205 Schwarm")


async def test_an_invalid_move_arrives_as_a_typed_error(server):
    red = await Client.connect("127.0.0.1", server.door("xml").port, "piranhas")
    blue = await Client.connect("127.0.0.1", server.door("xml").port, "piranhas")
    async with red, blue:
        await red.join()
        await blue.join()
        with trio.fail_after(5):
            while not isinstance(await red.receive(), MoveRequest):
                pass
            await red.send_move(Element("data", {"class": "move", "x": "5", "y": "5", "direction": "UP"}))
            messages = [message async for message in red]
    errors = [m for m in messages if isinstance(m, Error)]
    assert errors and errors[0].message.startswith("Ungueltiger Zug von 'Unknown'.")
    assert red.over


def test_blocking_client_for_scripts(swc_server):
    """No async anywhere: a script plays red against a reference bot process."""
    import subprocess
    import sys

    with connect_client("127.0.0.1", swc_server.port, game="piranhas") as client:
        client.join()
        opponent = subprocess.Popen([sys.executable, "-m", "swc_local.tools.cli", "bot", "piranhas", "--port", str(swc_server.port)])
        try:
            moves = 0
            for message in client:
                if isinstance(message, MoveRequest):
                    client.send_move(PIRANHAS.legal_moves(client.memento.game)[-1])
                    moves += 1
        finally:
            opponent.wait(timeout=15)
        assert client.result is not None and moves > 0
        assert client.color == "red"


async def test_send_move_needs_a_room(server):
    async with await Client.connect("127.0.0.1", server.door("xml").port) as client:
        with pytest.raises(RuntimeError):
            await client.send_move(Element("data", {"class": "move"}))
