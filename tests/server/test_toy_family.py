"""A fourth wire family joins ``swc serve`` with its ServerFamily (one entry of server/families.py)
and its game's one registry line (tests/toy_family.py), and no other edit.

The toy family's door is started by the server from ``server/doors.py`` like the real doors, plays a game, and is stopped by the same shutdown as every door:
its game under way ends the toy protocol's way, with its log marked unfinished, and the shutdown
waits for it. Its door is built on the shared transport (server/transport.py) like the real
doors: the transport accepts, caps, counts and reads its connections. Its settings section is
read from ``server.properties`` and ``swc serve``'s command line like the others'.
"""

from __future__ import annotations

import pytest
import trio

from swc_local.server.door import Door
from swc_local.server.shutdown import stop_gracefully

from swc_local.server.config import ConfigError, known_keys, load_settings

from tests.toy_family import MAX_LINE, LineCodec, ToyConnection, ToyDoor, register


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
    register(monkeypatch)
    server = await start_server(sections={"reversixt": {"enabled": False}})
    toy = server.door("toy")
    assert isinstance(toy, Door) and [door.name for door in server.doors] == ["xml", "toy"]
    logs = toy.logs

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


async def test_the_toy_door_lives_on_the_shared_transport(nursery, monkeypatch, caplog):
    """The transport counts the toy door's connections, reads them through the toy codec (with
    its bound) and refuses a connection over the door's cap, closed at once and logged."""
    register(monkeypatch)
    toy = await nursery.start(ToyDoor(max_connections=2).run)
    with trio.fail_after(30):
        ann = await Client.play(toy.port, "ann")
        while not toy._waiting:  # noqa: SLF001
            await trio.sleep(0.01)
        assert [type(c) for c in toy.transport.connections] == [ToyConnection] and toy.busy() == 1

        rambler = await trio.open_tcp_stream("127.0.0.1", toy.port)
        await rambler.send_all(b"PLAY " + b"x" * MAX_LINE)  # no end of line in sight: dropped
        assert await rambler.receive_some(100) == b""
        while len(toy.transport.connections) > 1:
            await trio.sleep(0.01)

        quiet = Client(await trio.open_tcp_stream("127.0.0.1", toy.port))  # never says PLAY
        while toy.busy() < 2:
            await trio.sleep(0.01)
        refused = await trio.open_tcp_stream("127.0.0.1", toy.port)
        assert await refused.receive_some(100) == b""  # over the cap: no byte, closed
        assert any(r.name == "swc.toy" and "connection refused" in r.getMessage() and "(maxConnections)" in r.getMessage()
                   for r in caplog.records)

        toy.stop("test over")
        for client in (ann, quiet):
            assert await client.next_line() == "STOPPED test over" and await client.next_line() == ""
        while toy.busy():
            await trio.sleep(0.01)
    assert toy.logs == []  # nobody played


def test_a_family_brings_its_keys_and_its_flags(monkeypatch, tmp_path, caplog, capsys):
    from swc_local.server.cli import main, serve_settings
    from swc_local.tools.cli import build_parser

    register(monkeypatch)
    assert "toyPort" in known_keys() and "reversixtPort" in known_keys() and "roborally.timer" in known_keys()
    properties = tmp_path / "server.properties"
    properties.write_text("toyPort = 7701\ntoyPrt = 1\n")
    assert load_settings(properties).section("toy").port == 7701
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == [f"{properties}:2: unknown key 'toyPrt' is ignored; did you mean 'toyPort'?"]
    properties.write_text("password = x\ntoyPort = 70000\n")
    with pytest.raises(ConfigError) as raised:
        load_settings(properties)
    assert str(raised.value) == f"{properties}:2: toyPort must be a port number -1 (off) or 0..65535, not '70000'"

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--toy-port" in capsys.readouterr().out
    assert build_parser().parse_args(["toy"]).command == "toy"  # the family's own command joins swc
    with pytest.raises(SystemExit):
        main(["serve", "--toy-port", "70000"])
    assert "argument --toy-port: '70000' is not a port number" in capsys.readouterr().err
    properties.write_text("toyPort = 7701\n")
    serve = ["serve", "--properties", str(properties)]
    assert serve_settings(build_parser().parse_args(serve)).section("toy").port == 7701
    assert serve_settings(build_parser().parse_args([*serve, "--toy-port", "0"])).section("toy").port == 0  # a flag wins
    properties.write_text("")
    assert serve_settings(build_parser().parse_args(serve)).section("toy").port == 7700  # swc serve's default
    assert load_settings(properties).section("toy").port is None  # in-process: a free port
