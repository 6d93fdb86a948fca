"""A raw line client and an in-process Robo Rally door for tests over TCP."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager

import trio

from swc_local.server.roborally.door import RoboRallyDoor
from swc_local.server.roborally.lobby import RoboRallySettings

FAST = dict(alive_interval=100.0, timer=0.3, play_card_timeout=0.3, pick_damage_timeout=0.5,
            reboot_direction_wait=0.5, close_delay=0.05)


@asynccontextmanager
async def running_door(game_factory=None, **settings):
    options = dict(FAST, port=0, single_game=False)
    options.update(settings)
    async with trio.open_nursery() as nursery:
        door = await nursery.start(RoboRallyDoor(RoboRallySettings(**options), game_factory=game_factory).run)
        try:
            yield door
        finally:
            nursery.cancel_scope.cancel()


class Wire:
    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = b""
        self.lines: list[dict] = []

    @classmethod
    async def connect(cls, port: int) -> "Wire":
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def send(self, message_type: str, body: dict | None = None) -> None:
        await self.send_raw(json.dumps({"messageType": message_type, "messageBody": body or {}}).encode() + b"\n")

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def recv(self, timeout: float = 5.0) -> tuple[str, dict] | None:
        """The next message, or None at end of stream."""
        with trio.fail_after(timeout):
            while b"\n" not in self.buffer:
                try:
                    data = await self.stream.receive_some(65536)
                except trio.BrokenResourceError:
                    data = b""
                if not data:
                    return None
                self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        message = json.loads(line)
        assert set(message) == {"messageType", "messageBody"}
        return message["messageType"], message["messageBody"]

    async def expect(self, message_type: str, body: dict | None = None, timeout: float = 5.0) -> dict:
        got = await self.recv(timeout)
        assert got is not None, f"connection closed, expected {message_type}"
        assert got[0] == message_type, f"expected {message_type} {body}, got {got}"
        if body is not None:
            assert got[1] == body, f"expected {message_type} {body}, got {got}"
        return got[1]

    async def expect_closed(self, timeout: float = 5.0) -> None:
        while True:
            got = await self.recv(timeout)
            if got is None:
                return
            assert got[0] in ("Alive",), f"expected the connection to close, got {got}"

    async def aclose(self) -> None:
        await self.stream.aclose()


async def join(port: int, name: str, figure: int, is_ai: bool = True) -> tuple[Wire, int]:
    wire = await Wire.connect(port)
    await wire.expect("HelloClient", {"protocol": "Version 1.0"})
    await wire.send("HelloServer", {"group": "test", "isAI": is_ai, "protocol": "Version 1.0"})
    client_id = (await wire.expect("Welcome"))["clientID"]
    await wire.send("PlayerValues", {"name": name, "figure": figure})
    while True:
        kind, body = await wire.recv()
        if kind == "PlayerAdded" and body["clientID"] == client_id:
            return wire, client_id
