"""The viewer caps connections per peer address when it accepts them, before hypercorn reads a byte
(issue 34: 3,000 streams from one client cost the server a whole request each)."""

from __future__ import annotations

import logging

import trio

from swc_local.server.config import load_settings

from tests.web.test_web_hardening import ATTACKER, acall, raw_request, read_answer
from tests.web_helpers import start_viewer_server

STREAM = b"GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n"
LIST = b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


async def answer_or_close(stream: trio.SocketStream) -> bytes:
    """The answer, or b"" for a connection the server closed (or reset) without one."""
    try:
        return await read_answer(stream)
    except trio.BrokenResourceError:
        return b""


async def test_connections_past_the_per_peer_cap_are_closed_unread_and_others_are_served(nursery, caplog):
    caplog.set_level(logging.WARNING, "swc.web")
    server = await start_viewer_server(nursery, {"web": {"port": 0, "max_connections_per_peer": 3,
                                                         "max_streams_per_peer": 100}})
    door = server.door("web")
    held = []
    with trio.fail_after(20):
        for _ in range(3):  # event streams: no keep-alive deadline closes them meanwhile
            stream = await raw_request(door.port, STREAM, source=ATTACKER)
            assert (await stream.receive_some(65536)).startswith(b"HTTP/1.1 200")
            held.append(stream)
        for _ in range(20):  # each a whole request: hypercorn's own accept loop answered every one
            extra = await raw_request(door.port, LIST, source=ATTACKER)
            assert await answer_or_close(extra) == b"", "a connection past the cap was served"
            await extra.aclose()
        status, _ = await acall(door.port, "GET", "/api/games")  # another address: served
        assert status == 200
        await held.pop().aclose()
        while True:  # the freed place is the client's again once the server saw the close
            again = await raw_request(door.port, LIST, source=ATTACKER)
            answer = await answer_or_close(again)
            await again.aclose()
            if answer:
                assert answer.startswith(b"HTTP/1.1 200")
                break
            await trio.sleep(0.05)
    assert door.peers.refused >= 20
    lines = [r for r in caplog.records if "viewerMaxConnectionsPerPeer" in r.getMessage()]
    assert 1 <= len(lines) <= 2 and ATTACKER in lines[0].getMessage()  # once per burst, with the address
    for stream in held:
        await stream.aclose()


def test_the_per_peer_connection_key_is_read(tmp_path):
    path = tmp_path / "server.properties"
    path.write_text("viewerMaxConnectionsPerPeer = 7\n")
    assert load_settings(path).section("web").max_connections_per_peer == 7
