"""SIGTERM stops every door of a real ``swc serve`` the documented way (server/door.py, server/shutdown.py).

A ReversiXT game and a Robo Rally game are under way in a ``swc serve`` subprocess (each stands
still at a point where the server waits for a player without a time limit, so the test does not
race the games), beside a ReversiXT player waiting for an opponent and a Robo Rally client in the
lobby. After SIGTERM: the process exits 143 (128 + SIGTERM); the ReversiXT clients get no further byte and an end
of stream (the reference's abort); the Robo Rally clients get whole lines, no ``GameFinished``,
then an end of stream; both games' logs are written and marked unfinished. The XML door's part of
the sequence is tested in tests/xml/test_reliability.py.
"""

from __future__ import annotations

import json
import re
import signal
import sys
from pathlib import Path

import trio

from swc_local.protocol import reversixt as rx
from swc_local.server.door import Door

REASON = "server stopped (SIGTERM)"
PORTS = {"xml": r"INFO swc.server: listening on [^:]+:(\d+)", "reversixt": r"ReversiXT door listening on [^:]+:(\d+)",
         "roborally": r"Robo Rally listening on [^:]+:(\d+)"}


async def start_swc_serve(tmp_path: Path) -> tuple[trio.Process, dict[str, int]]:
    """``swc serve`` on free ports (port 0 everywhere), its ports read from its log (the working
    directory is empty: no server.properties)."""
    log_path = tmp_path / "server.log"
    process = await trio.lowlevel.open_process(
        [sys.executable, "-m", "swc_local.tools.cli", "serve", "--port", "0", "--roborally-port", "0",
         "--save-replay", "--replay-dir", str(tmp_path / "replays"),
         "--roborally-log-dir", str(tmp_path / "roborally"), "--roborally-map", "Dizzy Highway",
         "--roborally-alive-interval", "600"],
        cwd=tmp_path, stderr=open(log_path, "wb"),
    )
    ports: dict[str, int] = {}
    with trio.fail_after(60):
        while len(ports) < len(PORTS):
            assert process.poll() is None, log_path.read_text()
            text = log_path.read_text()
            ports = {name: int(m.group(1)) for name, pattern in PORTS.items() if (m := re.search(pattern, text))}
            await trio.sleep(0.05)
    return process, ports


class ReversiClient:
    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.reader = rx.FrameReader(server_side=False, max_payload=1 << 24)
        self.frames: list[int] = []

    @classmethod
    async def join(cls, port: int, group: int) -> ReversiClient:
        client = cls(await trio.open_tcp_stream("127.0.0.1", port))
        await client.stream.send_all(rx.encode_group(group))
        return client

    async def read_until(self, frame_type: int) -> None:
        while frame_type not in self.frames:
            data = await self.stream.receive_some(65536)
            assert data, f"closed early after {self.frames}"
            self.reader.feed(data)
            self.frames += [frame.type for frame in self.reader.frames()]

    async def rest(self) -> bytes:
        """Everything until the end of stream."""
        received = b""
        while data := await self.stream.receive_some(65536):
            received += data
        return received


class RoboRallyClient:
    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = b""
        self.seen: list[dict] = []

    @classmethod
    async def connect(cls, port: int) -> RoboRallyClient:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def send(self, message_type: str, body: dict) -> None:
        await self.stream.send_all(json.dumps({"messageType": message_type, "messageBody": body}).encode() + b"\n")

    async def read_until(self, message_type: str) -> dict:
        while True:
            for message in self.seen:
                if message["messageType"] == message_type:
                    return message["messageBody"]
            data = await self.stream.receive_some(65536)
            assert data, f"closed early after {[m['messageType'] for m in self.seen]}"
            self.buffer += data
            *lines, self.buffer = self.buffer.split(b"\n")
            self.seen += [json.loads(line) for line in lines if line.strip()]

    async def hello(self) -> int:
        await self.read_until("HelloClient")
        await self.send("HelloServer", {"group": "shutdown", "isAI": True, "protocol": "Version 1.0"})
        return (await self.read_until("Welcome"))["clientID"]

    async def rest(self) -> list[dict]:
        """The whole lines until the end of stream (a cut line fails the test)."""
        while data := await self.stream.receive_some(65536):
            self.buffer += data
        assert self.buffer == b"", self.buffer
        return self.seen


async def test_sigterm_ends_reversixt_and_robo_rally_games_with_their_logs_and_closes(tmp_path):
    process, ports = await start_swc_serve(tmp_path)
    try:
        with trio.fail_after(60):
            first = await ReversiClient.join(ports["reversixt"], 1)
            second = await ReversiClient.join(ports["reversixt"], 2)
            await first.read_until(rx.REQUEST)  # the game runs; player 1 never answers (no time limit)
            await second.read_until(rx.PLAYER)
            waiting = await ReversiClient.join(ports["reversixt"], 3)  # waits for an opponent

            robots = [await RoboRallyClient.connect(ports["roborally"]) for _ in range(2)]
            for figure, robot in enumerate(robots, 1):
                await robot.hello()
                await robot.send("PlayerValues", {"name": f"robot{figure}", "figure": figure})
                await robot.read_until("PlayerAdded")
                await robot.send("SetStatus", {"ready": True})
            for robot in robots:
                await robot.read_until("CurrentPlayer")  # the game waits for a start point (no limit)
            lobby = await RoboRallyClient.connect(ports["roborally"])
            await lobby.hello()

            process.send_signal(signal.SIGTERM)
            before = {id(c): list(c.frames) for c in (first, second)}
            assert await first.rest() == b"" and await second.rest() == b"" and await waiting.rest() == b""
            assert before == {id(c): list(c.frames) for c in (first, second)}
            for client in (*robots, lobby):
                assert "GameFinished" not in [m["messageType"] for m in await client.rest()]
        with trio.fail_after(10):  # the sequence itself ends within its 1.5 s grace (no "cut off" below)
            await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
    log = (tmp_path / "server.log").read_text()
    assert process.returncode == 128 + signal.SIGTERM, log
    assert "SIGTERM received" in log and "cut off" not in log, log
    reversixt_logs = sorted((tmp_path / "replays").glob("reversixt-*"))
    assert [path.suffix for path in reversixt_logs] == [".log"], reversixt_logs  # no result file
    text = reversixt_logs[0].read_text()
    assert text.startswith("Starting game with map ") and text.endswith(f"game stopped before its end: {REASON}\n")
    roborally_logs = sorted((tmp_path / "roborally").glob("roborally-*.jsonl"))
    assert len(roborally_logs) == 1
    header = json.loads(roborally_logs[0].read_text().splitlines()[0])
    assert header["unfinished"] == REASON and header["winner"] is None and header["map"] == "Dizzy Highway"


def test_every_door_of_swc_serve_implements_the_contract():
    from swc_local.server.config import Settings
    from swc_local.server.reversixt.door import DoorSettings, ReversiDoor
    from swc_local.server.xml.door import XmlDoor
    from swc_local.server.roborally.door import RoboRallyDoor
    from swc_local.server.roborally.lobby import RoboRallySettings

    doors = [XmlDoor(Settings(port=0)), ReversiDoor(DoorSettings(port=0)), RoboRallyDoor(RoboRallySettings(port=0))]
    assert all(isinstance(door, Door) for door in doors)
    assert [door.name for door in doors] == ["xml", "reversixt", "roborally"]
    assert all(door.busy() == 0 for door in doors)


async def test_the_viewer_is_a_door_of_the_list_and_its_open_pages_end_with_the_shutdown(nursery):
    from swc_local.server.shutdown import stop_gracefully
    from tests.web_helpers import start_viewer_server

    server = await start_viewer_server(nursery)
    web = server.door("web")
    assert isinstance(web, Door) and [door.name for door in server.doors] == ["xml", "reversixt", "web"]
    with trio.fail_after(30):
        page = await trio.open_tcp_stream("127.0.0.1", web.port)  # a start page following the list
        await page.send_all(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        received = b""
        while b"data:" not in received:
            received += await page.receive_some(65536)
        assert received.startswith(b"HTTP/1.1 200") and web.busy() > 0
        await stop_gracefully(server, "server stopped (test)")
        while data := await page.receive_some(65536):
            received += data
    assert received.endswith(b"\r\n0\r\n\r\n"), received[-200:]  # a whole response: its last chunk, then closed
    assert web.busy() == 0
