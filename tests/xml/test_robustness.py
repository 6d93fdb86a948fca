"""The server holds under bad input, faults and internal errors (issue: reliability).

Everything here runs next to a normal game, which must still end REGULAR, and the server must
accept new games afterwards.
"""

from __future__ import annotations

import logging
import random

import trio

from swc_local.client.bot import play_game
from swc_local.client.connection import ClientConnection, ConnectionClosed
from swc_local.games import registry
from swc_local.protocol import messages as msg
from swc_local.protocol.element import Element
from tests.conftest import PASSWORD
from tests.wire import Raw, data_class

PIRANHAS = registry.get("swc_2019_piranhas")
BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(f'<!ENTITY lol{i} "{"&lol{};".format(i - 1 if i > 1 else "") * 10}">'.encode() for i in range(1, 10))
    + b"]><protocol><join>&lol9;</join>"
)


async def normal_game(port: int) -> list:
    reports = []

    async def seat(seed: int) -> None:
        reports.append(await play_game(PIRANHAS, "127.0.0.1", port, seed=seed))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(seat, 1)
        nursery.start_soon(seat, 2)
    return reports


def causes(report) -> list[str]:
    return [score.get("cause") for score in report.result.findall("score")]


async def test_abuse_next_to_a_normal_game(start_server, caplog, autojump_clock):
    """On trio's mock clock: the idle timeout and the slow writer's pauses are virtual seconds."""
    server = await start_server(max_message_bytes=64 * 1024, idle_timeout=2.0)
    port = server.door("xml").port
    outcomes: dict[str, object] = {}

    async def garbage() -> None:
        raw = await Raw.connect(port)
        await raw.send(bytes(random.Random(3).randrange(256) for _ in range(2000)).replace(b"<", b"<<"))
        outcomes["garbage"] = await raw.read_until_closed()

    async def billion_laughs() -> None:
        raw = await Raw.connect(port)
        await raw.send(BILLION_LAUGHS)
        outcomes["laughs"] = await raw.read_until_closed()

    async def huge_message() -> None:
        raw = await Raw.connect(port)
        await raw.send(b'<protocol><join gameType="')
        chunk = b"x" * (1 << 20)
        sent = 0
        try:
            while sent < 100 << 20:
                await raw.send(chunk)
                sent += len(chunk)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        outcomes["huge_sent"] = sent
        outcomes["huge"] = await raw.read_until_closed()

    async def one_byte_per_second() -> None:
        raw = await Raw.connect(port)
        try:
            for byte in b'<protocol><authenticate passphrase="guess-guess-guess-guess"/>':
                await raw.send(bytes([byte]))
                await trio.sleep(1)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        outcomes["slow"] = await raw.read_until_closed()

    async def many_connections() -> None:
        for _ in range(5):
            streams = [await trio.open_tcp_stream("127.0.0.1", port) for _ in range(100)]
            for stream in streams:
                await stream.aclose()
        outcomes["many"] = True

    async def moves_out_of_turn_and_for_other_rooms() -> None:
        red, blue = await Raw.connect(port), await Raw.connect(port)
        await red.send(b'<protocol><join gameType="swc_2018_hase_und_igel"/>')
        await red.read_until(b"<joined")
        await blue.send(b'<protocol><join gameType="swc_2018_hase_und_igel"/>')
        await blue.read_until(b'class="memento"')
        room_id = red.received.split(b'roomId="')[1].split(b'"')[0]
        await blue.send(b'<room roomId="' + room_id + b'"><data class="move"><skip order="0"/></data></room>')
        outcomes["out_of_turn"] = await blue.read_until_closed()
        outcomes["out_of_turn_opponent"] = await red.read_until(b"<left")
        stranger = await Raw.connect(port)
        await stranger.send(b'<protocol><room roomId="' + room_id + b'"><data class="move"><skip order="0"/></data></room>')
        outcomes["stranger"] = await stranger.read_until_closed()

    async def observe_without_auth() -> None:
        raw = await Raw.connect(port)
        await raw.send('<protocol><observe roomId="x"/><pause roomId="x" pause="true"/>')
        outcomes["observe_open"] = await raw.is_open_after(0.5)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for task in (
                garbage,
                billion_laughs,
                huge_message,
                one_byte_per_second,
                many_connections,
                moves_out_of_turn_and_for_other_rooms,
                observe_without_auth,
            ):
                nursery.start_soon(task)
            reports = await normal_game(port)
    for report in reports:
        assert causes(report) == ["REGULAR", "REGULAR"]
    assert outcomes["garbage"] == b"<protocol/>"
    assert outcomes["laughs"] == b"<protocol/>"
    assert outcomes["huge"] == b"<protocol/>" and outcomes["huge_sent"] < 100 << 20
    assert outcomes["slow"] == b"<protocol/>"  # dropped by the idle timeout
    assert outcomes["observe_open"] is True and outcomes["many"] is True
    assert b"It&apos;s not your turn yet." in outcomes["out_of_turn"]
    assert b'<score cause="LEFT" reason="Der Spieler hat das Spiel verlassen">' in outcomes["out_of_turn_opponent"]
    assert outcomes["stranger"] == b"<protocol>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>"
    assert "DTD declarations are not accepted" in caplog.text
    assert "max message size" in caplog.text
    assert "guess-guess" not in caplog.text
    for report in await normal_game(port):
        assert causes(report) == ["REGULAR", "REGULAR"]


async def test_a_limit_breaking_player_is_scored_left(start_server):
    server = await start_server(max_message_bytes=4096, max_depth=8)
    for attack in (b"<room>" + b"<a>" * 20, b'<room roomId="' + b"r" * 10_000):
        red, blue = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
        await red.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
        await red.read_until(b"<joined")
        await blue.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
        await red.read_until(b"MoveRequest")
        await red.send(attack)
        assert (await red.read_until_closed()).endswith(b"</room>\n</protocol>")
        await blue.read_until(b"<left")
        assert b'<score cause="LEFT" reason="Der Spieler hat das Spiel verlassen">' in blue.received


async def test_wrong_passwords_are_logged_without_the_password(server, caplog):
    for attempt in range(3):
        raw = await Raw.connect(server.door("xml").port)
        await raw.send(f'<protocol><authenticate passphrase="secret-attempt-{attempt}"/>')
        await raw.read_until_closed()
    good = await Raw.connect(server.door("xml").port)
    await good.send(f'<protocol><authenticate passphrase="{PASSWORD}"/>')
    assert await good.is_open_after(0.1)
    assert caplog.text.count("wrong admin passphrase from 127.0.0.1") == 1  # once per burst, with the peer (issue 34)
    assert "secret-attempt" not in caplog.text and PASSWORD not in caplog.text


async def test_an_observer_cannot_move(server):
    admin = await Raw.connect(server.door("xml").port)
    await admin.send(f'<protocol><authenticate passphrase="{PASSWORD}"/>')
    red, blue = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
    await red.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    await red.read_until(b"<joined")
    room_id = red.received.split(b'roomId="')[1].split(b'"')[0].decode()
    await admin.send(f'<observe roomId="{room_id}"/>')
    await admin.read_until(b"<observed")
    await blue.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    await red.read_until(b"MoveRequest")
    await admin.send(f'<room roomId="{room_id}"><data class="move" x="0" y="1" direction="UP"/></room>')
    assert (await admin.read_until_closed()).endswith(b"<sc.protocol.responses.CloseConnection/>\n</protocol>")
    assert b'turn="1"' not in red.received


class ExplodingGame:
    """A Piranhas game whose rules engine fails unexpectedly on a chosen turn."""

    def __init__(self, game, fail_at: int, where: str) -> None:
        self._game, self.fail_at, self.where = game, fail_at, where

    def __getattr__(self, name):
        return getattr(self._game, name)

    def apply(self, seat, move):
        if self.where == "apply" and self._game.turn == self.fail_at:
            raise RuntimeError("rules engine bug")
        self._game.apply(seat, move)

    def state_element(self):
        if self.where == "state" and self._game.turn == self.fail_at:
            raise RuntimeError("serialiser bug")
        return self._game.state_element()


async def test_an_internal_error_ends_only_that_room_with_a_result(start_server, caplog):
    server = await start_server(game_factory=lambda plugin, rng: ExplodingGame(plugin.new_game(rng), 2, "apply"))
    reports = await normal_game(server.door("xml").port)
    mover, other = sorted(reports, key=lambda r: r.result is not None)
    assert mover.result is None  # dropped, as the official server drops on any handler exception
    scores = [(s.get("cause"), s.find("part").text) for s in other.result.findall("score")]
    assert scores == [("LEFT", "0"), ("REGULAR", "2")]
    assert "unexpected error in on_data" in caplog.text and "RuntimeError: rules engine bug" in caplog.text
    assert server.door("xml").lobby.rooms == {}


async def test_an_internal_error_outside_a_move_still_ends_the_room(start_server, caplog):
    server = await start_server(
        game_factory=lambda plugin, rng: ExplodingGame(plugin.new_game(rng), 0, "state"), paused=True
    )
    admin = await Raw.connect(server.door("xml").port)
    await admin.send(f'<protocol><authenticate passphrase="{PASSWORD}"/>')
    red, blue = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
    await red.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    await red.read_until(b"<joined")
    await blue.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    await red.read_until(b"welcomeMessage")
    room_id = red.received.split(b'roomId="')[1].split(b'"')[0].decode()
    await admin.send(f'<step roomId="{room_id}"/>')
    for raw in (red, blue):
        await raw.read_until(b"<left")
        assert b'class="result"' in raw.received
    assert "unexpected error in step" in caplog.text
    assert await admin.still_connected()
    newcomer = await Raw.connect(server.door("xml").port)  # the server keeps serving
    await newcomer.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    await newcomer.read_until(b"<joined")


async def chaos_player(port: int, code: str, rng: random.Random, mode: str, at_move: int) -> dict:
    """A reference player that misbehaves once, at its ``at_move``-th move request."""
    seen = {"color": None, "result": None, "closed": False}
    connection = await ClientConnection.connect("127.0.0.1", port)
    await connection.send(Element("joinPrepared", {"reservationCode": code}))
    state, moves = None, 0
    try:
        while True:
            message = await connection.receive()
            if message.tag == "left":
                break
            kind = data_class(message)
            if kind == "welcomeMessage":
                seen["color"] = message.find("data").get("color")
            elif kind == "memento":
                state = message.find("data").find("state")
            elif kind == "result":
                seen["result"] = message.find("data")
            elif kind == msg.MOVE_REQUEST_CLASS:
                moves += 1
                room_id = message.get("roomId")
                game = PIRANHAS.game_from_state(state)
                if mode != "good" and moves == at_move:
                    if mode == "disconnect":
                        await connection.stream.aclose()
                        seen["closed"] = True
                        return seen
                    if mode == "hard":
                        continue  # never answer
                    if mode == "soft":
                        await trio.sleep(1.3)
                    if mode == "invalid":
                        await connection.send(msg.room(room_id, Element("data", {"class": "move", "x": "10", "y": "1", "direction": "LEFT"})))
                        continue
                move = PIRANHAS.random_move(game, rng)
                await connection.send(msg.room(room_id, PIRANHAS.move_element(move)))
    except ConnectionClosed:
        seen["closed"] = True
        return seen
    await connection.close()
    return seen


EXPECTED = {"disconnect": "LEFT", "hard": "HARD_TIMEOUT", "soft": "SOFT_TIMEOUT", "invalid": "RULE_VIOLATION"}


async def test_chaos_fifty_games_each_end_with_one_right_result(start_server, mock_clock):
    """Fifty games at once, one misbehaving seat in most of them.

    The rooms time their players on trio's clock; here it is virtual and moves only when every
    task waits (autojump), so a turn takes no time however loaded the machine is, and the soft
    and hard limits are met or missed only by the players that sleep or never answer on purpose.
    """
    mock_clock.autojump_threshold = 0.1
    server = await start_server(soft_timeout_ms=1000, hard_timeout_ms=2000)
    baseline_tasks = len(server.door("xml")._nursery.child_tasks)
    rng = random.Random(2026)
    plans = []
    for index in range(50):
        mode = rng.choice(["good", "good", "disconnect", "hard", "soft", "invalid"])
        plans.append((index, mode, rng.randrange(1, 12)))
    results = {}
    admin = await ClientConnection.connect("127.0.0.1", server.door("xml").port)
    await admin.send(Element("authenticate", {"passphrase": PASSWORD}))
    codes = []
    for _ in plans:
        slot = Element("slot", {"displayName": "p", "canTimeout": "true", "shouldBePaused": "false"})
        await admin.send(Element("prepare", {"gameType": PIRANHAS.game_type}, [slot, slot]))
        codes.append([r.text for r in (await admin.receive()).findall("reservation")])
    await admin.close()

    async def game(index: int, mode: str, at_move: int) -> None:
        pair = {}

        async def seat(name: str, seat_mode: str, code: str) -> None:
            rng = random.Random(index * 2 + len(name))
            pair[name] = await chaos_player(server.door("xml").port, code, rng, seat_mode, at_move)

        async with trio.open_nursery() as nursery:
            bad_seat = index % 2  # the misbehaving player plays red in even games, blue in odd ones
            nursery.start_soon(seat, "bad", mode, codes[index][bad_seat])
            nursery.start_soon(seat, "good", "good", codes[index][1 - bad_seat])
        results[index] = pair

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for index, mode, at_move in plans:
                nursery.start_soon(game, index, mode, at_move)
    for index, mode, at_move in plans:
        good, bad = results[index]["good"], results[index]["bad"]
        assert good["result"] is not None, (index, mode)
        scores = good["result"].findall("score")
        assert len(scores) == 2
        by_color = {"red": scores[0], "blue": scores[1]}
        bad_score, good_score = by_color[bad["color"]], by_color[good["color"]]
        if mode == "good":
            assert [s.get("cause") for s in scores] == ["REGULAR", "REGULAR"]
            continue
        assert bad_score.get("cause") == EXPECTED[mode], (index, mode, at_move)
        assert (good_score.get("cause"), good_score.find("part").text) == ("REGULAR", "2")
        if mode in ("hard", "soft"):
            assert bad["result"] is not None  # timed-out players stay connected and get the result
        else:
            assert bad["result"] is None
    with trio.fail_after(5):
        while server.door("xml").connections or server.door("xml").lobby.rooms:
            await trio.sleep(0.01)
    assert len(server.door("xml")._nursery.child_tasks) == baseline_tasks


async def test_connections_beyond_the_maximum_are_refused(start_server):
    server = await start_server(max_connections=3)
    open_ones = [await Raw.connect(server.door("xml").port) for _ in range(3)]
    await trio.sleep(0.05)
    extra = await Raw.connect(server.door("xml").port)
    assert await extra.read_until_closed() == b"<protocol/>"
    for raw in open_ones:
        assert await raw.is_open_after(0.05)
        await raw.aclose()
    with trio.fail_after(2):
        while server.door("xml").connections:
            await trio.sleep(0.01)
    again = await Raw.connect(server.door("xml").port)
    await again.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    await again.read_until(b"<joined")


async def test_the_idle_timeout_spares_players_whose_game_has_ended(start_server, autojump_clock):
    """On trio's mock clock: the 1 s idle timeout is virtual."""
    server = await start_server(idle_timeout=1.0)
    red, blue = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
    await red.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    await red.read_until(b"<joined")
    await blue.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    await red.read_until(b"MoveRequest")
    await red.send(b"</protocol>")  # red leaves: blue's game is over
    await blue.read_until(b"<left")
    idle = await Raw.connect(server.door("xml").port)
    assert await blue.is_open_after(1.5)  # still open after the idle timeout
    assert await idle.read_until_closed() == b"<protocol/>"
