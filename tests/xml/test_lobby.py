"""Lobby requests, their error answers, and the fault matrix (spec §2-§6), over real sockets."""

from __future__ import annotations

import trio

from swc_local.games import registry
from swc_local.protocol.element import Element
from tests.conftest import PASSWORD
from tests.wire import Raw, data_class, messages

PIRANHAS = "swc_2019_piranhas"
CLOSE = b"<protocol>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>"
MOVE_REQUEST = b'<data class="sc.framework.plugins.protocol.MoveRequest"/>'
PLUGIN = registry.get(PIRANHAS)


async def admin(port: int) -> Raw:
    raw = await Raw.connect(port)
    await raw.send(f'<protocol><authenticate passphrase="{PASSWORD}"/>')
    return raw


async def prepare(raw: Raw, slots: str = "") -> tuple[str, list[str]]:
    slots = slots or (
        '<slot displayName="Alice" canTimeout="true" shouldBePaused="false"/>'
        '<slot displayName="Bob" canTimeout="true" shouldBePaused="false"/>'
    )
    before = len(messages(bytes(raw.received)))
    await raw.send(f'<prepare gameType="{PIRANHAS}">{slots}</prepare>')
    await raw.read_until(b"</prepared>")
    prepared = messages(bytes(raw.received))[before]
    return prepared.get("roomId"), [r.text for r in prepared.findall("reservation")]


def last_state(raw: Raw) -> Element:
    states = [m for m in messages(bytes(raw.received)) if data_class(m) == "memento"]
    return states[-1].find("data").find("state")


def legal_move_xml(raw: Raw, room_id: str) -> str:
    game = PLUGIN.game_from_state(last_state(raw))
    move = PLUGIN.legal_moves(game)[0]
    return Element("room", {"roomId": room_id}, [PLUGIN.move_element(move)]).render(0)


def result_scores(raw: Raw) -> list[tuple[str, str | None, list[str]]]:
    (result,) = [m for m in messages(bytes(raw.received)) if data_class(m) == "result"]
    return [
        (s.get("cause"), s.get("reason"), [p.text for p in s.findall("part")])
        for s in result.find("data").findall("score")
    ]


async def joined_pair(port: int) -> tuple[Raw, Raw, str]:
    red, blue = await Raw.connect(port), await Raw.connect(port)
    await red.send(f'<protocol><join gameType="{PIRANHAS}"/>')
    await red.read_until(b"<joined")
    await blue.send(f'<protocol><join gameType="{PIRANHAS}"/>')
    await red.read_until(MOVE_REQUEST)
    await blue.read_until(b'class="memento"')
    room_id = messages(bytes(red.received))[0].get("roomId")
    return red, blue, room_id


async def prepared_pair(port: int, codes: list[str]) -> tuple[Raw, Raw]:
    """Red and blue joining a prepared room with their reservation codes."""
    red, blue = await Raw.connect(port), await Raw.connect(port)
    await red.send(f'<protocol><joinPrepared reservationCode="{codes[0]}"/>')
    await blue.send(f'<protocol><joinPrepared reservationCode="{codes[1]}"/>')
    return red, blue


# -- authentication and admin requests ------------------------------------------------------


async def test_wrong_passphrase_is_closed_politely(server):
    raw = await Raw.connect(server.door("xml").port)
    await raw.send('<protocol><authenticate passphrase="wrong"/>')
    assert await raw.read_until_closed() == CLOSE


async def test_admin_requests_without_authentication_are_ignored(server):
    raw = await Raw.connect(server.door("xml").port)
    await raw.send(f'<protocol><prepare gameType="{PIRANHAS}"><slot displayName="a"/></prepare>')
    await raw.send('<observe roomId="nope"/><step roomId="nope"/><cancel roomId="nope"/>')
    assert await raw.is_open_after(0.3)
    assert raw.received == b""
    assert server.door("xml").lobby.rooms == {}


async def test_correct_authentication_gets_no_reply(server):
    raw = await admin(server.door("xml").port)
    assert await raw.is_open_after(0.2)
    assert raw.received == b""


async def test_prepare_errors(server):
    unknown = await admin(server.door("xml").port)
    await unknown.send('<prepare gameType="no_such_game"><slot displayName="a"/></prepare>')
    assert await unknown.read_until_closed() == CLOSE
    empty = await admin(server.door("xml").port)
    await empty.send(f'<prepare gameType="{PIRANHAS}"></prepare>')
    assert await empty.read_until_closed() == b"<protocol/>"
    three = await admin(server.door("xml").port)
    await three.send(f'<prepare gameType="{PIRANHAS}"><slot/><slot/><slot/></prepare>')
    assert await three.read_until_closed() == CLOSE
    assert server.door("xml").lobby.rooms == {}


async def test_observe_and_step_of_unknown_rooms_close_but_pause_is_only_logged(server):
    pauser = await admin(server.door("xml").port)
    await pauser.send('<pause roomId="nope" pause="true"/>')
    assert await pauser.is_open_after(0.2)
    for request in ('<observe roomId="nope"/>', '<step roomId="nope"/>'):
        raw = await admin(server.door("xml").port)
        await raw.send(request)
        assert await raw.read_until_closed() == CLOSE


async def test_reservation_codes_work_once(server):
    owner = await admin(server.door("xml").port)
    _, codes = await prepare(owner)
    first = await Raw.connect(server.door("xml").port)
    await first.send(f'<protocol><joinPrepared reservationCode="{codes[0]}"/>')
    again = await Raw.connect(server.door("xml").port)
    await again.send(f'<protocol><joinPrepared reservationCode="{codes[0]}"/>')
    assert await again.read_until_closed() == CLOSE
    assert await first.is_open_after(0.1) and first.received == b""


async def test_unknown_reservation_code_closes(server):
    raw = await Raw.connect(server.door("xml").port)
    await raw.send('<protocol><joinPrepared reservationCode="00000000-0000-0000-0000-000000000000"/>')
    assert await raw.read_until_closed() == CLOSE


async def test_prepared_game_starts_only_when_both_joined_and_joined_goes_in_slot_order(server):
    owner = await admin(server.door("xml").port)
    room_id, codes = await prepare(owner)
    blue = await Raw.connect(server.door("xml").port)
    await blue.send(f'<protocol><joinPrepared reservationCode="{codes[1]}"/>')
    assert await blue.is_open_after(0.2) and blue.received == b""
    red = await Raw.connect(server.door("xml").port)
    await red.send(f'<protocol><joinPrepared reservationCode="{codes[0]}"/>')
    await red.read_until(MOVE_REQUEST)
    await blue.read_until(b"</board>")
    assert [m.tag for m in messages(bytes(red.received))] == ["joined", "room", "room", "room"]
    assert [data_class(m) for m in messages(bytes(blue.received))[1:]] == ["welcomeMessage", "memento"]
    assert b'displayName="Alice" color="RED"' in red.received
    assert b'<joinedGameRoom' not in owner.received


async def test_join_notifies_every_admin_and_pairs_only_the_same_game_type(server):
    first_admin, second_admin = await admin(server.door("xml").port), await admin(server.door("xml").port)
    await trio.sleep(0.05)
    red = await Raw.connect(server.door("xml").port)
    await red.send(f'<protocol><join gameType="{PIRANHAS}"/>')
    await red.read_until(b"<joined")
    other = await Raw.connect(server.door("xml").port)
    await other.send('<protocol><join gameType="swc_2018_hase_und_igel"/>')
    await other.read_until(b"<joined")
    assert len(server.door("xml").lobby.rooms) == 2
    blue = await Raw.connect(server.door("xml").port)
    await blue.send(f'<protocol><join gameType="{PIRANHAS}"/>')
    await blue.read_until(b'class="memento"')
    for raw in (first_admin, second_admin):
        await raw.read_until(b'existing="true"')
        notices = [(m.tag, m.get("existing")) for m in messages(bytes(raw.received))]
        assert notices == [("joinedGameRoom", "false"), ("joinedGameRoom", "false"), ("joinedGameRoom", "true")]


async def test_join_of_an_unknown_game_type_closes(server):
    raw = await Raw.connect(server.door("xml").port)
    await raw.send('<protocol><join gameType="no_such_game"/>')
    assert await raw.read_until_closed() == CLOSE


async def test_unknown_elements_and_the_short_close_alias_are_dropped(server):
    for text in ("<protocol><close/>", "<protocol><move/>", '<protocol><data class="move"/>'):
        raw = await Raw.connect(server.door("xml").port)
        await raw.send(text)
        assert await raw.read_until_closed() == b"<protocol/>"


async def test_close_connection_is_answered_with_the_end_of_the_stream(server):
    raw = await Raw.connect(server.door("xml").port)
    await raw.send(f'<protocol><join gameType="{PIRANHAS}"/><sc.protocol.responses.CloseConnection/>')
    received = await raw.read_until_closed()
    assert received.endswith(b'"/>\n</protocol>') and received.startswith(b"<protocol>\n  <joined")


async def test_observer_gets_no_snapshot_only_the_next_state(server):
    owner = await admin(server.door("xml").port)
    room_id, codes = await prepare(owner)
    red, blue = await prepared_pair(server.door("xml").port, codes)
    await red.read_until(MOVE_REQUEST)
    await owner.send(f'<observe roomId="{room_id}"/>')
    await owner.read_until(b"<observed")
    assert await owner.is_open_after(0.1)
    assert b"memento" not in owner.received
    await red.send(legal_move_xml(red, room_id))
    await owner.read_until(b'turn="1"')


async def test_test_mode_and_score_for_player(server):
    owner = await admin(server.door("xml").port)
    await owner.send('<testMode testMode="true"/>')
    await owner.read_until(b'<testing testMode="true"/>')
    red, blue, room_id = await joined_pair(server.door("xml").port)
    await red.aclose()  # red leaves: blue wins 2 points
    await blue.read_until(b"<left")
    await owner.send('<scoreForPlayer displayName="Unknown"/>')
    await owner.read_until(b"</playerScore>")
    score = messages(bytes(owner.received))[-1].find("score")
    assert score.attrs == {"displayName": "Unknown", "numberOfTests": "2"}
    values = score.findall("values")
    assert values[0].find("fragment").get("name") == "Gewinner"
    assert values[0].find("value").text == "2"
    assert values[1].find("fragment").get("name") == "\u2205 Schwarm"
    unknown = await admin(server.door("xml").port)
    await unknown.send('<scoreForPlayer displayName="nobody"/>')
    assert await unknown.read_until_closed() == b"<protocol/>"


# -- rooms: cancel, free reservations, forced steps ----------------------------------------


async def test_cancel_sends_left_without_result_and_keeps_the_admin(server):
    owner = await admin(server.door("xml").port)
    room_id, codes = await prepare(owner)
    await owner.send(f'<observe roomId="{room_id}"/>')
    red, blue = await prepared_pair(server.door("xml").port, codes)
    await red.read_until(MOVE_REQUEST)
    await owner.send(f'<cancel roomId="{room_id}"/>')
    for raw in (red, blue, owner):
        await raw.read_until(f'<left roomId="{room_id}"/>'.encode())
        assert b'class="result"' not in raw.received
    assert await owner.is_open_after(0.2)
    assert room_id not in server.door("xml").lobby.rooms


async def test_a_freed_reservation_is_taken_by_join_with_the_slot_name(server):
    owner = await admin(server.door("xml").port)
    room_id, codes = await prepare(owner)
    await owner.send(f'<freeReservation reservation="{codes[1]}"/>')
    red = await Raw.connect(server.door("xml").port)
    await red.send(f'<protocol><joinPrepared reservationCode="{codes[0]}"/>')
    joiner = await Raw.connect(server.door("xml").port)
    await joiner.send(f'<protocol><join gameType="{PIRANHAS}"/>')
    await joiner.read_until(b'class="memento"')
    assert f'<joined roomId="{room_id}"/>'.encode() in joiner.received
    assert b'<blue displayName="Bob" color="BLUE"/>' in joiner.received
    stale = await Raw.connect(server.door("xml").port)
    await stale.send(f'<protocol><joinPrepared reservationCode="{codes[1]}"/>')
    assert await stale.read_until_closed() == CLOSE
    await owner.send('<freeReservation reservation="unknown"/>')
    await owner.read_until_closed()


async def test_forced_step_starts_with_a_dummy_that_times_out(start_server, autojump_clock):
    """On trio's mock clock, so the 300 ms hard timeout is not reached by a slow machine early."""
    server = await start_server(hard_timeout_ms=300)
    owner = await admin(server.door("xml").port)
    room_id, codes = await prepare(owner)
    await owner.send(f'<observe roomId="{room_id}"/>')
    red = await Raw.connect(server.door("xml").port)
    await red.send(f'<protocol><joinPrepared reservationCode="{codes[0]}"/>')
    await owner.send(f'<step roomId="{room_id}"/>')  # not forced: ignored
    assert await red.is_open_after(0.1)
    await owner.send(f'<step roomId="{room_id}" forced="true"/>')
    await red.read_until(MOVE_REQUEST)
    await red.send(legal_move_xml(red, room_id))
    late = await Raw.connect(server.door("xml").port)  # the dummy's reservation no longer works
    await late.send(f'<protocol><joinPrepared reservationCode="{codes[1]}"/>')
    assert await late.read_until_closed() == CLOSE
    await red.read_until(b"<left")
    assert [cause for cause, _, _ in result_scores(red)] == ["REGULAR", "HARD_TIMEOUT"]


async def test_a_player_that_left_before_the_start_times_out_once_the_game_starts(start_server, autojump_clock):
    """On trio's mock clock: the hard timeout is virtual."""
    server = await start_server(hard_timeout_ms=300)
    owner = await admin(server.door("xml").port)
    room_id, codes = await prepare(owner)
    early = await Raw.connect(server.door("xml").port)
    await early.send(f'<protocol><joinPrepared reservationCode="{codes[0]}"/>')
    await trio.sleep(0.05)
    await early.aclose()
    await trio.sleep(0.05)
    blue = await Raw.connect(server.door("xml").port)
    await blue.send(f'<protocol><joinPrepared reservationCode="{codes[1]}"/>')
    await blue.read_until(b"<left")
    scores = result_scores(blue)
    assert scores[0][:2] == (
        "HARD_TIMEOUT",
        "Der Spieler hat innerhalb von 0 Sekunden nach Aufforderung keinen Zug gesendet",
    )
    assert scores[1][0] == "REGULAR" and scores[1][2][0] == "2"


# -- the fault matrix -------------------------------------------------------------------------


async def test_a_move_out_of_turn_costs_left_and_echoes_the_request(server):
    red, blue, room_id = await joined_pair(server.door("xml").port)
    await blue.send(f'<room roomId="{room_id}"><data class="move" x="1" y="0" direction="UP"/></room>')
    received = await blue.read_until_closed()
    assert received.endswith(
        f'\n  <room roomId="{room_id}">\n'
        '    <data class="error" message="It&apos;s not your turn yet.">\n'
        '      <originalRequest class="move" x="1" y="0" direction="UP"/>\n'
        "    </data>\n  </room>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>".encode()
    )
    await red.read_until(b"<left")
    assert result_scores(red)[0][:2] == ("REGULAR", None)
    assert result_scores(red)[1][:2] == ("LEFT", "Der Spieler hat das Spiel verlassen")


async def test_a_payload_that_is_not_a_move_is_a_rule_violation(server):
    red, blue, room_id = await joined_pair(server.door("xml").port)
    await red.send(f'<room roomId="{room_id}"><data class="welcomeMessage" color="red"/></room>')
    received = await red.read_until_closed()
    assert (
        b'message="Ungueltiger Zug von &apos;Unknown&apos;.&#xa;Unknown hat kein Zug-Objekt gesendet."/>'
        in received
    )
    await blue.read_until(b"<left")
    assert result_scores(blue)[0][:2] == ("RULE_VIOLATION", "Unknown hat kein Zug-Objekt gesendet.")


async def test_undecodable_moves_drop_the_player_and_cost_left(server):
    for data in (
        '<data class="move" x="0" y="1" direction="right"/>',
        '<data class="move" x="0" y="1"/>',
        '<data class="nonsense"/>',
        "<data/>",
    ):
        red, blue, room_id = await joined_pair(server.door("xml").port)
        await red.send(f'<room roomId="{room_id}">{data}</room>')
        assert (await red.read_until_closed()).endswith(MOVE_REQUEST + b"\n  </room>\n</protocol>")
        await blue.read_until(b"<left")
        assert result_scores(blue)[0][0] == "LEFT", data


async def test_a_move_for_another_room_closes_and_costs_left_in_the_own_room(server):
    red, blue, room_id = await joined_pair(server.door("xml").port)
    red2, blue2, other_room = await joined_pair(server.door("xml").port)
    await red.send(legal_move_xml(red2, other_room))
    assert (await red.read_until_closed()).endswith(b"\n  <sc.protocol.responses.CloseConnection/>\n</protocol>")
    await blue.read_until(b"<left")
    assert result_scores(blue)[0][0] == "LEFT"
    await red2.send(legal_move_xml(red2, other_room))
    await blue2.read_until(b'turn="1"')


async def test_the_connection_stays_open_after_a_normal_end_until_the_client_closes(server, autojump_clock):
    """On trio's mock clock: a slow machine cannot turn a move into a SOFT_TIMEOUT."""
    owner = await admin(server.door("xml").port)
    room_id, codes = await prepare(owner)
    red, blue = await prepared_pair(server.door("xml").port, codes)
    players = {0: red, 1: blue}
    await red.read_until(MOVE_REQUEST)
    with trio.fail_after(20):
        while b"<left" not in red.received:
            game = PLUGIN.game_from_state(last_state(red))
            mover = players[game.current_seat]
            count = mover.received.count(MOVE_REQUEST)
            await mover.send(legal_move_xml(red, room_id))
            await red.read_until(f'turn="{game.turn + 1}"'.encode())
            await blue.read_until(f'turn="{game.turn + 1}"'.encode())
            await trio.sleep(0.01)
            assert mover.received.count(MOVE_REQUEST) == count
    await blue.read_until(b"<left")
    for raw in (red, blue):
        assert await raw.is_open_after(0.2)
        await raw.send("</protocol>")
        assert (await raw.read_until_closed()).endswith(f'<left roomId="{room_id}"/>\n</protocol>'.encode())


async def test_paused_room_refuses_a_move_before_the_first_request(server):
    owner = await admin(server.door("xml").port)
    room_id, codes = await prepare(
        owner,
        '<slot displayName="A" canTimeout="true" shouldBePaused="true"/>'
        '<slot displayName="B" canTimeout="true" shouldBePaused="false"/>',
    )
    red, blue = await prepared_pair(server.door("xml").port, codes)
    await red.read_until(b"welcomeMessage")
    await red.send(f'<room roomId="{room_id}"><data class="move" x="0" y="1" direction="UP"/></room>')
    received = await red.read_until_closed()
    assert b"We didn&apos;t request a data from you yet." in received
    assert b'<originalRequest class="move" x="0" y="1" direction="UP"/>' in received
    await blue.read_until(b"<left")
    assert result_scores(blue)[0][0] == "LEFT"
