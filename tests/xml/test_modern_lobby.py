"""The modern (2022+) lobby and rooms, on the test-only toy games of tests/modern_toy.py.

Covers both result envelopes (2022 and 2025), the lobby's errorpackets and silent closes, the
admin flow (prepare, observe, pause, step, cancel) and the routing that keeps classic clients
on their own answers.  The Ostseeschach captures are replayed in test_scenarios_ostseeschach.py.
"""

from __future__ import annotations

import re

import pytest
import trio

from tests.conftest import PASSWORD
from tests.modern_toy import TOY_2022, TOY_2025, register
from tests.wire import Raw, data_class, messages

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture(autouse=True)
def _toys(monkeypatch):
    register(monkeypatch)


def move(room_id: str, start: int, end: int) -> str:
    return f'<room roomId="{room_id}"><data class="move"><from x="{start}"/><to x="{end}"/></data></room>'


async def pair(port: int, game_type: str | None = None) -> tuple[Raw, Raw, str]:
    join = "<join/>" if game_type is None else f'<join gameType="{game_type}"/>'
    one, two = await Raw.connect(port), await Raw.connect(port)
    await one.send("<protocol>" + join)
    await one.read_until(b"<joined")
    await two.send("<protocol>" + join)
    await one.read_until(b'class="moveRequest"')
    await two.read_until(b'class="memento"')
    room_id = UUID.search(bytes(one.received).decode())[0]
    return one, two, room_id


async def wait_count(client: Raw, marker: bytes, count: int, timeout: float = 5) -> None:
    """Read until ``marker`` occurs ``count`` times in what ``client`` received."""
    with trio.fail_after(timeout):
        while bytes(client.received).count(marker) < count:
            data = await client.stream.receive_some(65536)
            if not data:
                raise AssertionError(f"closed before {count} x {marker!r}")
            client.received += data


async def play_out(one: Raw, two: Raw, room_id: str, steps=(1, 2, 1, 1, 2, 2)) -> None:
    """Both advance by ``steps`` (ONE, TWO, ONE, ...), each answering its move request."""
    positions = [0, 0]
    for turn, step in enumerate(steps):
        seat = turn % 2
        client = (one, two)[seat]
        await wait_count(client, b'class="moveRequest"', turn // 2 + 1)
        await client.send(move(room_id, positions[seat], positions[seat] + step))
        positions[seat] += step


async def test_join_game_bytes_and_2022_result(start_server):
    server = await start_server(default_game="test_2022_toy")
    one, two, room_id = await pair(server.door("xml").port)
    assert bytes(one.received).decode() == (
        f'<protocol>\n  <joined roomId="{room_id}"/>'
        f'\n  <room roomId="{room_id}">\n    <data class="welcomeMessage" color="ONE"/>\n  </room>'
        f'\n  <room roomId="{room_id}">\n    <data class="memento">\n      <state class="state" turn="0">'
        '\n        <token team="ONE" x="0"/>\n        <token team="TWO" x="0"/>\n      </state>\n    </data>\n  </room>'
        f'\n  <room roomId="{room_id}">\n    <data class="moveRequest"/>\n  </room>'
    )
    await play_out(one, two, room_id)
    end = f'\n  <left roomId="{room_id}"/>'.encode()
    for client in (one, two):
        await client.read_until(end)
    result = bytes(two.received).split(b'<data class="result">')[1]
    assert result.decode() == (
        "\n      <definition>"
        '\n        <fragment name="Siegpunkte">\n          <aggregation>SUM</aggregation>'
        "\n          <relevantForRanking>true</relevantForRanking>\n        </fragment>"
        '\n        <fragment name="Weite">\n          <aggregation>AVERAGE</aggregation>'
        "\n          <relevantForRanking>true</relevantForRanking>\n        </fragment>"
        "\n      </definition>\n      <scores>"
        '\n        <entry>\n          <player team="ONE"/>\n          <score cause="REGULAR" reason="">'
        "\n            <part>0</part>\n            <part>4</part>\n          </score>\n        </entry>"
        '\n        <entry>\n          <player team="TWO"/>\n          <score cause="REGULAR" reason="">'
        "\n            <part>2</part>\n            <part>5</part>\n          </score>\n        </entry>"
        '\n      </scores>\n      <winner team="TWO"/>\n    </data>\n  </room>'
        f'\n  <left roomId="{room_id}"/>'
    )
    # the server never ends the stream by itself; </protocol> from the client: closed silently
    assert await one.still_connected(0.05)
    await one.send("</protocol>")
    assert await one.read_until_closed() == bytes(one.received)
    assert bytes(one.received).endswith(end)


async def test_2025_envelope_winner_with_reason_and_a_violators_zero_parts(start_server):
    server = await start_server(default_game="test_2025_toy")
    one, two, room_id = await pair(server.door("xml").port)
    await play_out(one, two, room_id)
    await two.read_until(b"<left")
    winner = [m for m in messages(bytes(two.received)) if data_class(m) == "result"][0].find("data")
    assert winner.find("winner").attrs == {"team": "TWO", "regular": "true", "reason": "TWO ist weiter gekommen"}
    assert [entry.find("score").attrs for entry in winner.find("scores").findall("entry")] == [{}, {}]
    assert b"cause=" not in bytes(two.received)

    one, two, room_id = await pair(server.door("xml").port)
    await one.send(move(room_id, 0, 3))  # a vector the token does not have
    await two.read_until(b"<left")
    await one.read_until(b"<left")
    text = bytes(one.received).decode()
    assert (
        "<data class=\"error\" message=\"Ungueltiger Zug von &apos;&apos;.&#xa;"
        "InvalidMoveException(mistake=%s kann sich nicht um %s bewegen, move=Zug von [0] zu [3])\">"
        '\n      <originalMessage class="move">\n        <from x="0"/>\n        <to x="3"/>\n      </originalMessage>'
    ) in text
    result = bytes(two.received).decode().split('<data class="result">')[1]
    assert "<part>0</part>\n            <part>0</part>" in result  # ONE's parts all zero
    assert (
        '<winner team="TWO" regular="false" reason="Regelverletzung von ONE: '
        "%s kann sich nicht um %s bewegen bei Zug &apos;Zug von [0] zu [3]&apos;\"/>"
    ) in result
    assert b"class=\"error\"" not in bytes(two.received)  # the opponent does not get the error


async def test_join_without_game_type_goes_to_the_newest_modern_season(start_server):
    server = await start_server()
    one, two, room_id = await pair(server.door("xml").port)
    assert server.door("xml").lobby.rooms[room_id].plugin is TOY_2025
    one2, two2, other = await pair(server.door("xml").port, "test_2022_toy")
    assert server.door("xml").lobby.rooms[other].plugin is TOY_2022


async def test_lobby_errorpackets_keep_the_connection_open(start_server):
    server = await start_server(lobby_dialect="modern")
    cases = {
        '<joinPrepared reservationCode="nope"/>': (
            '<errorpacket message="sc.server.gaming.UnknownReservationException: Couldn&apos;t find a reservation '
            'for the provided token.">\n    <originalRequest class="joinPrepared" reservationCode="nope"/>\n  </errorpacket>'
        ),
        '<joinRoom roomId="r"/>': (
            '<errorpacket message="sc.api.plugins.exceptions.GameRoomException: Couldn&apos;t find a room with id r">'
            '\n    <originalRequest class="joinRoom" roomId="r"/>\n  </errorpacket>'
        ),
        '<authenticate password="wrong"/>': (
            '<errorpacket message="sc.server.network.AuthenticationFailedException: Failed to authenticate as '
            'administrator">\n    <originalRequest class="authenticate" password="wrong"/>\n  </errorpacket>'
        ),
        '<step roomId="r"/>': (
            '<errorpacket message="sc.server.network.UnauthenticatedException: Request StepRequest(roomId=r, '
            'forced=false) requires authentication">\n    <originalRequest class="step" roomId="r" forced="false"/>'
            "\n  </errorpacket>"
        ),
    }
    for request, answer in cases.items():
        client = await Raw.connect(server.door("xml").port)
        await client.send("<protocol>" + request)
        await client.read_until(b"</errorpacket>")
        assert bytes(client.received).decode() == "<protocol>\n  " + answer
        assert await client.still_connected(0.05)
        await client.aclose()


@pytest.mark.parametrize(
    "request_text",
    ["<thisIsNoKnownElement/>", '<join gameType="no_such_game"/>', "<join><unclosed></protocol>"],
)
async def test_modern_faults_close_without_a_word(start_server, request_text):
    server = await start_server(lobby_dialect="modern")
    client = await Raw.connect(server.door("xml").port)
    await client.send("<protocol>" + request_text)
    assert await client.read_until_closed() == b""


async def test_the_same_junk_gets_the_classic_answer_by_default(start_server):
    server = await start_server()
    client = await Raw.connect(server.door("xml").port)
    await client.send("<protocol><thisIsNoKnownElement/>")
    assert await client.read_until_closed() == b"<protocol/>"


async def test_close_connection_is_answered_with_the_end_of_the_stream(start_server):
    server = await start_server()
    client = await Raw.connect(server.door("xml").port)
    await client.send("<protocol><join/><sc.protocol.CloseConnection/>")
    received = await client.read_until_closed()
    assert received.startswith(b"<protocol>\n  <joined roomId=") and received.endswith(b"/>\n</protocol>")
    # its room had no other player: it is closed, so the next <join/> gets a fresh room
    with trio.fail_after(2):
        while server.door("xml").lobby.rooms:
            await trio.sleep(0.01)


async def test_prepared_paused_game_with_step_pause_and_observer(start_server):
    server = await start_server()
    admin = await Raw.connect(server.door("xml").port)
    await admin.send(
        f'<protocol><authenticate password="{PASSWORD}"/>'
        '<prepare gameType="test_2022_toy" pause="true"><slot displayName="alpha" canTimeout="true" reserved="true"/>'
        '<slot displayName="beta" canTimeout="false" reserved="true"/></prepare>'
    )
    await admin.read_until(b"</prepared>")
    room_id, code1, code2 = UUID.findall(bytes(admin.received).decode())
    await admin.send(f'<observe roomId="{room_id}"/>')
    await admin.read_until(b"<observed")
    p1, p2 = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
    await p1.send(f'<protocol><joinPrepared reservationCode="{code1}"/>')
    await p1.read_until(b"<joined")
    await p2.send(f'<protocol><joinPrepared reservationCode="{code2}"/>')
    await admin.read_until(b'class="memento"')  # the paused start: observers only
    await p2.read_until(b'class="welcomeMessage" color="TWO"')
    assert await p1.still_connected(0.05) and b"memento" not in p1.received
    await admin.send(f'<step roomId="{room_id}" forced="false"/>')
    await p1.read_until(b'class="moveRequest"')
    await p1.send(move(room_id, 0, 1))
    await admin.read_until(b'turn="1"')
    assert await p2.still_connected(0.05) and b'turn="1"' not in p2.received  # paused: observers only
    await admin.send(f'<pause roomId="{room_id}" pause="false"/>')
    await admin.read_until(b'class="paused" paused="false"')
    await p2.read_until(b'class="moveRequest"')
    assert bytes(p2.received).count(b'turn="1"') == 1
    await p2.send(move(room_id, 0, 2))
    await wait_count(p1, b'class="moveRequest"', 2)
    await admin.send(f'<cancel roomId="{room_id}"/>')
    for client in (p1, p2, admin):
        await client.read_until(b"<left")
    result = bytes(admin.received).decode().split('<data class="result">')[1]
    assert '<player name="alpha" team="ONE"/>\n          <score cause="REGULAR" reason="">\n            <part>0</part>' in result
    assert "<winner" not in result
    assert b"paused" not in p1.received + p2.received  # paused goes to observers only


async def test_classic_and_modern_games_at_the_same_time(start_server):
    from swc_local.client.bot import play_game
    from swc_local.games import registry

    server = await start_server()
    piranhas = registry.get("swc_2019_piranhas")
    reports = []

    async def classic(seed: int) -> None:
        reports.append(await play_game(piranhas, "127.0.0.1", server.door("xml").port, None, seed))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(classic, 1)
        nursery.start_soon(classic, 2)
        one, two, room_id = await pair(server.door("xml").port)
        await play_out(one, two, room_id)
        await two.read_until(b"<left")
    assert len(reports) == 2 and all(report.result is not None for report in reports)
    assert all(
        score.get("cause") == "REGULAR" for report in reports for score in report.result.findall("score")
    )
    assert b'<winner team="TWO" regular="true"' in two.received


async def test_join_players_time_out_unless_timeout_is_off(start_server, mock_clock):
    mock_clock.autojump_threshold = 0.1
    server = await start_server(default_game="test_2022_toy")
    one, two, room_id = await pair(server.door("xml").port)
    await two.read_until(b"<left", timeout=30)
    assert b'cause="SOFT_TIMEOUT" reason="Der Spieler hat innerhalb von 10 Sekunden' in two.received
    assert b"<winner" not in two.received

    server = await start_server(default_game="test_2022_toy", sections={"xml": {"join_timeout": False}})
    one, two, room_id = await pair(server.door("xml").port)
    await trio.sleep(30)
    await one.send(move(room_id, 0, 1))
    await two.read_until(b'class="moveRequest"')


def test_settings_keys_and_flags(tmp_path):
    from swc_local.tools.cli import build_parser
    from swc_local.server.config import ConfigError, load_settings
    from swc_local.server.xml.modern_lobby import check_default_game

    path = tmp_path / "server.properties"
    path.write_text("defaultGame = test_2022_toy\ntimeout = false\nlobbyDialect = modern\n")
    settings = load_settings(path)
    xml = settings.section("xml")
    assert (xml.default_game, xml.join_timeout, xml.lobby_dialect) == ("test_2022_toy", False, "modern")
    path.write_text("lobbyDialect = both\n")
    with pytest.raises(ConfigError):
        load_settings(path)
    args = build_parser().parse_args(["serve", "--game", "test_2025_toy", "--no-timeout", "--lobby-dialect", "modern"])
    assert (args.game, args.no_timeout, args.lobby_dialect) == ("test_2025_toy", True, "modern")
    assert check_default_game("test_2025_toy") is None
    assert "not a modern game" in check_default_game("swc_2019_piranhas")


async def test_2025_unknown_element_in_a_game_is_a_protocol_error(start_server):
    server = await start_server(default_game="test_2025_toy")
    one, two, room_id = await pair(server.door("xml").port)
    await one.send("<foo/>")
    assert await one.read_until_closed() == bytes(one.received)  # closed without a word
    await two.read_until(b"<left")
    assert b'<winner team="TWO" regular="false" reason="ONE hat das Spiel verlassen: PROTOCOL_ERROR"/>' in two.received


async def test_one_connection_in_both_seats(start_server):
    """Two <join/> on one connection take both seats (captured on 26.1.0, lobby L8)."""
    server = await start_server(default_game="test_2025_toy")
    client = await Raw.connect(server.door("xml").port)
    await client.send("<protocol><join/><join/>")
    await client.read_until(b'class="moveRequest"')
    kinds = [m.tag if m.tag != "room" else data_class(m) for m in messages(bytes(client.received))]
    assert kinds == ["joined", "joined", "welcomeMessage", "welcomeMessage", "memento", "memento", "moveRequest"]


async def test_abuse_next_to_a_normal_modern_game(start_server):
    """Foreign moves, moves into a running room from outsiders, admin requests without a password,
    junk and a stolen joinRoom never touch the game next door, which ends REGULAR."""
    server = await start_server(default_game="test_2022_toy", lobby_dialect="modern")
    one, two, room_id = await pair(server.door("xml").port)
    abuse = [
        move(room_id, 0, 1),  # an outsider moves in a foreign room
        f'<joinRoom roomId="{room_id}"/>',  # the room is full
        f'<observe roomId="{room_id}"/>',  # not authenticated
        f'<cancel roomId="{room_id}"/>',
        f'<pause roomId="{room_id}" pause="true"/>',
        f'<room roomId="{room_id}"><data class="moveRequest"/></room>',
        f'<room roomId="{room_id}"/>',
        '<authenticate password="guess"/>',
        '<joinPrepared reservationCode=""/>',
        "<prepare/>",
    ]
    outsiders = []
    for text in abuse:
        client = await Raw.connect(server.door("xml").port)
        await client.send("<protocol>" + text)
        outsiders.append(client)
    for client in outsiders:
        await client.read_until(b"</errorpacket>")
        assert b"<room" not in client.received
    junk = await Raw.connect(server.door("xml").port)
    await junk.send("<protocol><join/><join><unclosed></protocol>")  # a third <join/>: a new room, then junk
    await junk.read_until_closed()
    await play_out(one, two, room_id)
    await two.read_until(b"<left")
    assert bytes(two.received).count(b'cause="REGULAR"') == 2
    with trio.fail_after(2):
        while server.door("xml").lobby.rooms:
            await trio.sleep(0.01)


def test_dialect_helpers_never_raise_on_any_element():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from swc_local.protocol import modern as wire
    from swc_local.protocol.element import Element

    names = st.sampled_from(
        ["join", "joinRoom", "joinPrepared", "authenticate", "prepare", "slot", "observe", "pause", "step",
         "cancel", "room", "data", "close", "x", "sc.protocol.CloseConnection"]
    )
    attrs = st.dictionaries(
        st.sampled_from(["gameType", "roomId", "password", "passphrase", "pause", "reserved", "forced",
                         "displayName", "canTimeout", "shouldBePaused", "class", "reservationCode"]),
        st.text(max_size=8),
        max_size=4,
    )
    elements = st.recursive(
        st.builds(Element, names, attrs), lambda kids: st.builds(Element, names, attrs, st.lists(kids, max_size=3)), max_leaves=8
    )

    @settings(max_examples=300, deadline=None)
    @given(elements)
    def check(element):
        assert wire.dialect_hint(element) in (None, wire.MODERN, wire.CLASSIC)
        rendered = wire.errorpacket(wire.unauthenticated(element), element).render(1)
        assert rendered.startswith("\n  <errorpacket message=")
        wire.decode_prepare(element)
        if element.find("data") is not None:
            wire.data_text("r", element.find("data"))

    check()


async def test_the_admin_library_drives_a_modern_room(start_server):
    """swc_local.client.admin speaks the classic admin syntax (passphrase, shouldBePaused); the
    server accepts it for a 2022+ game: prepare, observe, the game, the result."""
    from swc_local.client.admin import Admin
    from swc_local.client.bot import play_game
    from swc_local.client.messages import Result
    from swc_local.games import registry

    server = await start_server()
    ostseeschach = registry.get("swc_2022_ostseeschach")
    async with await Admin.connect("127.0.0.1", server.door("xml").port, PASSWORD) as admin:
        room = await admin.prepare("ostseeschach", ["Alice", "Bob"])
        assert len(room.reservations) == 2
        await admin.observe(room.room_id)
        reports = []
        async with trio.open_nursery() as nursery:
            for seat, code in enumerate(room.reservations):

                async def bot(code=code, seat=seat):
                    reports.append(await play_game(ostseeschach, "127.0.0.1", server.door("xml").port, code, seat))

                nursery.start_soon(bot)
            with trio.fail_after(20):
                result = await admin.wait_result(room.room_id)
    assert isinstance(result, Result)
    assert [s.cause for s in result.scores] == ["REGULAR", "REGULAR"]
    assert {r.color for r in reports} == {"ONE", "TWO"}


async def test_2025_cancel_scores_the_current_leader(start_server):
    server = await start_server(default_game="test_2025_toy")
    admin = await Raw.connect(server.door("xml").port)
    await admin.send(f'<protocol><authenticate password="{PASSWORD}"/>')
    one, two, room_id = await pair(server.door("xml").port)
    await one.send(move(room_id, 0, 2))
    await wait_count(two, b'class="moveRequest"', 1)
    await admin.send(f'<cancel roomId="{room_id}"/>')
    await two.read_until(b"<left")
    result = [m for m in messages(bytes(two.received)) if data_class(m) == "result"][0].find("data")
    parts = [[p.text for p in e.find("score").findall("part")] for e in result.find("scores").findall("entry")]
    assert parts == [["2", "2"], ["0", "0"]]
    assert result.find("winner").attrs == {"team": "ONE", "regular": "true", "reason": ""}


@pytest.mark.parametrize(
    ("first", "dialect"),
    [
        ("<join/>", "modern"),
        ('<join gameType="test_2022_toy"/>', "modern"),
        ('<join gameType="swc_2019_piranhas"/>', "classic"),
        ('<join gameType="nothing"/>', None),
        ('<joinRoom roomId="r"/>', "modern"),
        ('<authenticate password="p"/>', "modern"),
        ('<authenticate passphrase="p"/>', "classic"),
        ('<prepare gameType="swc_2019_piranhas"><slot reserved="true"/></prepare>', "modern"),
        ('<prepare gameType="swc_2019_piranhas"><slot shouldBePaused="true"/></prepare>', "classic"),
        ('<prepare gameType="test_2022_toy"><slot shouldBePaused="true"/></prepare>', "modern"),
        ("<sc.protocol.CloseConnection/>", "modern"),
        ("<sc.protocol.responses.CloseConnection/>", "classic"),
        ('<joinPrepared reservationCode="x"/>', None),
        ("<foo/>", None),
    ],
)
def test_routing_of_a_connections_first_message(first, dialect):
    """Which dialect answers a fresh connection's first message (None: the lobbyDialect)."""
    from swc_local.protocol.element import parse
    from swc_local.server.xml.settings import XmlDoorSettings
    from swc_local.server.xml.connection import Connection
    from swc_local.server.xml.lobby import Lobby
    from swc_local.server.xml.dialects import route

    for fallback in ("classic", "modern"):
        lobby = Lobby(XmlDoorSettings(lobby_dialect=fallback), spawn=lambda *args: None)
        connection = Connection(None)
        connection.fallback_dialect = fallback
        assert route(lobby, connection, parse(first)) == (dialect or fallback)


async def test_one_prepare_path_names_unlisted_seats_by_the_room_and_refuses_as_each_dialect_does(start_server):
    """Both syntaxes reach the lobby's one prepare: an unlisted seat is reserved and takes
    timeouts, a seat without a name shows the room's blank name ("" in 2022+, "Unknown" in
    2018/2019); a ``prepare`` the server cannot prepare drops a 2022+ admin without a word
    and closes a 2018/2019 one politely, and leaves no room behind."""
    server = await start_server()
    admin = await Raw.connect(server.door("xml").port)
    prepares = ('<prepare gameType="test_2022_toy"><slot displayName="alpha" reserved="false"/></prepare>',
                '<prepare gameType="swc_2019_piranhas" pause="true"><slot reserved="true"/></prepare>')
    await admin.send(f'<protocol><authenticate password="{PASSWORD}"/>' + "".join(prepares))
    await wait_count(admin, b"</prepared>", 2)
    first, second = bytes(admin.received).decode().split("</prepared>")[:2]
    assert len(UUID.findall(first)) == 2 and len(UUID.findall(second)) == 3  # the room and its reserved seats
    toy, piranhas = (server.door("xml").lobby.rooms[UUID.findall(text)[0]] for text in (first, second))
    assert [(s.name, s.can_timeout) for s in toy.slots] == [("alpha", False), ("", True)]
    assert [s.name for s in piranhas.slots] == ["Unknown", "Unknown"] and piranhas.paused
    rooms = set(server.door("xml").lobby.rooms)
    closes = b"<protocol>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>"
    for login, answer in (("password", b""), ("passphrase", closes)):  # 2022+ drops, 2018/2019 closes
        for request in ('<prepare gameType="no_such_game"><slot/></prepare>',
                        '<prepare gameType="swc_2019_piranhas"><slot/><slot/><slot/></prepare>'):
            client = await Raw.connect(server.door("xml").port)
            await client.send(f'<protocol><authenticate {login}="{PASSWORD}"/>{request}')
            assert await client.read_until_closed() == answer, (login, request)
    assert set(server.door("xml").lobby.rooms) == rooms
