"""A ``<join/>`` without gameType finds a join that names a 2022+ game, in either order.

The official clients since 2022 join without a game type (each official server served one
game); swc-local serves ten, so a bare join pairs with the join that has waited longest in a
room of any 2022+ game, and a join naming a 2022+ game takes the seat beside a waiting bare
join, whose room becomes one of that game under the same id.  Two bare joins play
``defaultGame``.  The welcome of a bare join that a typed join named the game for says
``gameType``; the room and the log say it too.
"""

from __future__ import annotations

import logging
import re

import trio

from swc_local.client.bot import play_game
from swc_local.client.client import Client
from swc_local.client.messages import MoveRequest
from swc_local.games import registry
from swc_local.protocol.element import Element
from swc_local.server.web.book import GameBook
from swc_local.server.xml.records import watch_lobby
from tests.wire import Raw, data_class, messages

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
PIRANHAS = "swc_2026_piranhas"
PENGUINS = "swc_2023_penguins"
DEFAULT = "swc_2027_blokus"  # the newest season: defaultGame when none is configured


def join(game_type: str | None) -> str:
    return "<join/>" if game_type is None else f'<join gameType="{game_type}"/>'


async def joined(port: int, game_type: str | None) -> tuple[Raw, str]:
    """A raw client that sent its join and was told its room."""
    client = await Raw.connect(port)
    await client.send("<protocol>" + join(game_type))
    await client.read_until(b"<joined")
    return client, UUID.search(bytes(client.received).decode())[0]


async def welcome_of(client: Raw) -> Element:
    await client.read_until(b'class="welcomeMessage"')
    return next(m for m in messages(bytes(client.received)) if data_class(m) == "welcomeMessage").find("data")


async def first_state_game(client: Raw) -> str:
    """The game whose state the client's first memento holds (by the state's shape)."""
    await client.read_until(b"</state>")
    state = next(m for m in messages(bytes(client.received)) if data_class(m) == "memento").find("data").find("state")
    return registry.plugin_for_state(state).game_type


async def test_a_bare_join_takes_the_seat_of_a_typed_join_waiting_before_it(start_server, caplog):
    server = await start_server()
    port = server.door("xml").port
    typed, room_id = await joined(port, PIRANHAS)
    bare, bare_room = await joined(port, None)
    assert bare_room == room_id
    assert (await welcome_of(bare)).attrs == {"class": "welcomeMessage", "color": "TWO", "gameType": PIRANHAS}
    assert (await welcome_of(typed)).attrs == {"class": "welcomeMessage", "color": "ONE"}  # as the official bytes
    assert await first_state_game(bare) == PIRANHAS
    assert server.door("xml").lobby.rooms[room_id].plugin.game_type == PIRANHAS
    assert f"plays {PIRANHAS}, the game of the join waiting in room {room_id}" in caplog.text


async def test_a_typed_join_takes_the_seat_of_a_bare_join_waiting_before_it(start_server, caplog):
    """The bare join waited in a room of ``defaultGame``: it becomes a Piranhas room, same id."""
    server = await start_server()
    port = server.door("xml").port
    lobby = server.door("xml").lobby
    book = GameBook()
    watch_lobby(lobby, book)  # the viewer's records of live rooms
    bare, room_id = await joined(port, None)
    assert lobby.rooms[room_id].plugin.game_type == DEFAULT
    typed, typed_room = await joined(port, PIRANHAS)
    assert typed_room == room_id
    assert (await welcome_of(bare)).attrs == {"class": "welcomeMessage", "color": "ONE", "gameType": PIRANHAS}
    assert "gameType" not in (await welcome_of(typed)).attrs
    assert await first_state_game(bare) == PIRANHAS
    assert await first_state_game(typed) == PIRANHAS
    assert lobby.rooms[room_id].plugin.game_type == PIRANHAS
    assert [r.plugin.game_type for r in lobby.rooms.values()] == [PIRANHAS]  # the Blokus room is gone
    assert [r.game_type for r in book.records.values()] == [PIRANHAS]  # and the viewer lists it no more
    assert lobby.rooms_finished == 0
    assert f"room {room_id}: its <join/> without gameType plays {PIRANHAS}" in caplog.text
    assert f"room {room_id} started: {PIRANHAS}" in caplog.text


async def test_three_and_more_waiting_joins_of_mixed_kinds(start_server):
    """Typed joins of different games wait side by side; each bare join takes the one that has
    waited longest; a bare join never takes a classic or 2021 join's seat; two bare joins with
    nobody typed waiting play ``defaultGame``."""
    server = await start_server()
    port = server.door("xml").port
    lobby = server.door("xml").lobby
    piranhas, piranhas_room = await joined(port, PIRANHAS)
    classic, classic_room = await joined(port, "swc_2019_piranhas")
    penguins, penguins_room = await joined(port, PENGUINS)
    first_bare, first_room = await joined(port, None)
    second_bare, second_room = await joined(port, None)
    assert (first_room, second_room) == (piranhas_room, penguins_room)
    assert await first_state_game(first_bare) == PIRANHAS
    assert await first_state_game(second_bare) == PENGUINS
    third_bare, third_room = await joined(port, None)  # only the classic join waits: a room of its own
    assert third_room != classic_room and lobby.rooms[third_room].plugin.game_type == DEFAULT
    fourth_bare, fourth_room = await joined(port, None)
    assert fourth_room == third_room
    for client, team in ((third_bare, "ONE"), (fourth_bare, "TWO")):  # the official welcome
        assert (await welcome_of(client)).attrs == {"class": "welcomeMessage", "color": team}
        assert await first_state_game(client) == DEFAULT
    assert lobby.rooms[classic_room].player_count == 1  # still waiting for a 2019 join
    assert not classic.received.count(b"welcomeMessage")


async def test_a_bare_join_whose_player_left_is_not_taken_over(start_server):
    """The typed join takes the seat beside the bare join still there, not the one that left."""
    server = await start_server()
    port = server.door("xml").port
    gone, gone_room = await joined(port, None)
    await gone.aclose()
    waiting, room_id = await joined(port, None)
    typed, typed_room = await joined(port, PIRANHAS)
    assert room_id != gone_room and typed_room == room_id
    assert await first_state_game(waiting) == PIRANHAS
    assert gone_room not in server.door("xml").lobby.rooms


async def test_an_admin_observing_a_waiting_bare_room_sees_the_game_it_became(start_server):
    server = await start_server()
    port = server.door("xml").port
    admin = await Raw.connect(port)
    bare, room_id = await joined(port, None)
    await admin.send(f'<protocol><authenticate password="{server.settings.password}"/><observe roomId="{room_id}"/>')
    await admin.read_until(b"<observed")
    await joined(port, PIRANHAS)
    assert await first_state_game(admin) == PIRANHAS


async def test_the_reference_bot_and_a_bare_client_play_a_whole_game(start_server, caplog):
    """``swc bot piranhas_2026``'s player (a typed join) and a client of the library that joins
    as the official clients do, both seeing the game to its end."""
    server = await start_server(seed=7)
    port = server.door("xml").port
    plugin = registry.get(PIRANHAS)
    results = {}

    async def bare_player() -> None:
        async with await Client.connect("127.0.0.1", port, plugin) as client:
            await client.send(Element("join"))
            async for message in client:
                if isinstance(message, MoveRequest):
                    await client.send_move(plugin.legal_moves(client.memento.game)[0])
            results["bare"] = client.result

    async def bot() -> None:
        with trio.fail_after(60):  # the bare join waits first: its room is taken over
            while not server.door("xml").lobby.bare_rooms:
                await trio.sleep(0.01)
        results["bot"] = await play_game(plugin, "127.0.0.1", port, seed=3)

    caplog.set_level(logging.INFO, logger="swc")
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bare_player)
            nursery.start_soon(bot)
    assert results["bot"].error is None and results["bot"].result is not None
    assert results["bare"] is not None
    assert f"its <join/> without gameType plays {PIRANHAS}" in caplog.text


KINDS = [None, PIRANHAS, PENGUINS, "swc_2022_ostseeschach", "swc_2019_piranhas"]


def expected_pairs(kinds: list[str | None]) -> dict[int, tuple[int | None, str]]:
    """The rules as a list model: join index -> (partner's index or None while waiting, game)."""
    waiting: list[tuple[int, str | None]] = []  # (index, game type named or None), oldest first
    outcome: dict[int, tuple[int | None, str]] = {}
    modern = {game for game in KINDS if game is not None and registry.get(game).dialect == "modern"}
    for index, kind in enumerate(kinds):
        if kind is None:
            match = next((w for w in waiting if w[1] is None or w[1] in modern), None)
        else:
            match = next((w for w in waiting if w[1] == kind), None)
            if match is None and kind in modern:
                match = next((w for w in waiting if w[1] is None), None)
        if match is None:
            waiting.append((index, kind))
            outcome[index] = (None, kind or DEFAULT)
            continue
        waiting.remove(match)
        game = kind or match[1] or DEFAULT
        outcome[index] = (match[0], game)
        outcome[match[0]] = (index, game)
    return outcome


def test_any_sequence_of_joins_pairs_as_the_documented_rules_say():
    """Random sequences of bare, 2022+ and 2019 joins on the lobby itself, against a list model
    of the rules in docs/manual/server.md (FIFO among the waiting ones)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from swc_local.protocol.element import parse
    from swc_local.server.config import Settings
    from swc_local.server.xml.connection import Connection
    from swc_local.server.xml.lobby import Lobby

    @settings(max_examples=30, deadline=None)
    @given(st.lists(st.sampled_from(KINDS), max_size=8))
    def check(kinds):
        async def scenario():
            lobby = Lobby(Settings(), spawn=lambda *args: None)
            connections = []
            for kind in kinds:
                connection = Connection(None)
                connections.append(connection)
                lobby.receive(connection, parse(join(kind)))
            rooms = [connection.slots[0].room for connection in connections]
            for index, (partner, game) in expected_pairs(kinds).items():
                assert rooms[index].plugin.game_type == game, (kinds, index)
                if partner is None:
                    assert rooms[index].player_count == 1, (kinds, index)
                else:
                    assert rooms[index] is rooms[partner] and rooms[index].full, (kinds, index)
            assert sum(1 for room in lobby.bare_rooms if room.status.value == "created") <= 1

        trio.run(scenario)

    check()
