"""A fourth wire family joins ``swc serve`` with its door and one line (tests/toy_family.py).

The toy family's door is started by the server from ``server/door.py``'s list like the real
doors, plays a game, and is stopped by the same shutdown as every door: its game under way ends
the toy protocol's way, with its log marked unfinished, and the shutdown waits for it.
"""

from __future__ import annotations

import trio

from swc_local.server.door import Door
from swc_local.server.shutdown import stop_gracefully

from .toy_family import LineCodec, register


class Client:
    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream, self.codec, self.lines = stream, LineCodec(), []

    @classmethod
    async def play(cls, port: int, name: str) -> Client:
        client = cls(await trio.open_tcp_stream("127.0.0.1", port))
        await client.stream.send_all(LineCodec.encode("PLAY", name))
        return client

    async def next_line(self) -> str:
        while not self.lines:
            data = await self.stream.receive_some(4096)
            if not data:
                return ""
            self.lines += self.codec.feed(data)
        return self.lines.pop(0)


async def test_a_fourth_family_is_served_and_stopped_like_the_others(start_server, monkeypatch):
    logs: list[str] = []
    register(monkeypatch, logs)
    server = await start_server(reversixt_enabled=False)
    toy = server.doors[-1]
    assert isinstance(toy, Door) and toy.name == "toy" and [door.name for door in server.doors] == ["xml", "toy"]

    with trio.fail_after(30):
        first = await Client.play(toy.port, "ann")
        while not toy._waiting:  # noqa: SLF001 -- ann waits before bob arrives, so ann counts first
            await trio.sleep(0.01)
        second = await Client.play(toy.port, "bob")
        for mover in (first, second, first):
            while (line := await mover.next_line()) != "TURN":
                assert line.startswith("COUNTED"), line
            await mover.stream.send_all(LineCodec.encode("COUNT"))
        seen = []
        while line := await first.next_line():  # until the door closes the game
            seen.append(line)
        assert seen == ["COUNTED ann 3", "WON ann"]
        assert logs == ["ann 1\nbob 2\nann 3\nwinner ann\n"]

        third = await Client.play(toy.port, "cy")
        while not toy._waiting:  # noqa: SLF001
            await trio.sleep(0.01)
        fourth = await Client.play(toy.port, "dee")
        assert await third.next_line() == "TURN"  # cy does not answer: the game stands still
        await stop_gracefully(server, "server stopped (test)")
        assert await third.next_line() == "STOPPED server stopped (test)" and await third.next_line() == ""
        assert await fourth.next_line() == "STOPPED server stopped (test)" and await fourth.next_line() == ""
    assert logs[1] == "\nunfinished server stopped (test)\n"
    assert toy.busy() == 0
