"""Hive 2020 rooms where the captures are silent: the choices of docs/games/hive.md."""

from __future__ import annotations

import trio

from tests.conftest import PASSWORD

START = '<protocol><authenticate password="{p}"/><prepare gameType="swc_2020_hive">' \
        '<slot displayName="a" canTimeout="false" shouldBePaused="false"/>' \
        '<slot displayName="b" canTimeout="false" shouldBePaused="false"/></prepare>'


async def _read_until(stream, marker: bytes, received: bytearray) -> None:
    with trio.fail_after(10):
        while marker not in received:
            data = await stream.receive_some(65536)
            if not data:
                return
            received += data


async def test_a_dropped_player_that_cannot_time_out_leaves_instead_of_hanging(start_server):
    """BLUE moves out of turn: dropped, the game goes on (official); its seat cannot time out,
    so at its next move request it is scored LEFT instead of the official hang."""
    server = await start_server(password=PASSWORD)
    admin = await trio.open_tcp_stream("127.0.0.1", server.door("xml").port)
    got = bytearray()
    await admin.send_all(START.format(p=PASSWORD).encode())
    await _read_until(admin, b"</prepared>", got)
    codes = [part.split("<")[0] for part in got.decode().split("<reservation>")[1:]]
    room = got.decode().split('prepared roomId="')[1].split('"')[0]
    players = []
    for code in codes:
        stream = await trio.open_tcp_stream("127.0.0.1", server.door("xml").port)
        await stream.send_all(f'<protocol><joinPrepared reservationCode="{code}"/>'.encode())
        players.append((stream, bytearray()))
    (red, red_got), (blue, blue_got) = players
    await _read_until(red, b"MoveRequest", red_got)
    await blue.send_all(f'<room roomId="{room}"><data class="skipmove"/></room>'.encode())
    await _read_until(blue, b"</protocol>", blue_got)
    assert b"It&apos;s not your turn yet." in blue_got and blue_got.endswith(
        b"<sc.protocol.responses.CloseConnection/>\n</protocol>")
    await red.send_all(f'<room roomId="{room}"><data class="setmove"><piece owner="RED" type="BEE"/>'
                       f'<destination x="0" y="0" z="0"/></data></room>'.encode())
    await _read_until(red, b"<left ", red_got)
    result = red_got[red_got.index(b'class="result"'):].decode()
    assert '<score cause="REGULAR" reason="">' in result
    assert '<score cause="LEFT" reason="Der Spieler hat das Spiel verlassen">' in result
    assert '<winner color="RED" displayName="a"/>' in result
    for stream in (admin, red, blue):
        await stream.aclose()


def test_lobby_dialect_2020_is_a_setting_and_a_flag():
    import pytest

    from swc_local.server.sections import ConfigError
    from swc_local.server.xml.settings import SECTION

    assert SECTION.read({"lobbyDialect": "2020"}, {"lobbyDialect": "server.properties:1"}) == {"lobby_dialect": "2020"}
    with pytest.raises(ConfigError, match="lobbyDialect must be classic, modern, 2020 or 2021, not '2019'"):
        SECTION.read({"lobbyDialect": "2019"}, {"lobbyDialect": "server.properties:1"})
