"""The server's per-move shortcuts write exactly the bytes of the general path (issue 23).

The shortcuts: a game's ``state_text(depth)`` instead of rendering ``state_element()``; the room's
memento envelope and move request rendered once per room; the lobby's direct route for a classic
player's move; the write of what handling a message queued, by the reader, at the end of the step.
The byte-for-byte captures of the official servers (``test_golden_*``) cover whole games; these
tests pin the shortcuts against the general path on many positions, odd names and hints included.
"""

from __future__ import annotations

import random

import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from swc_local.games import registry
from swc_local.games.piranhas.rules import Move
from swc_local.protocol import messages as msg
from swc_local.server.xml.connection import Connection, begin_batch, end_batch
from tests.random_plies import random_plies
from tests.wire import Raw

PIRANHAS = registry.get("swc_2019_piranhas")
NAMES = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), red=NAMES, blue=NAMES, hints=st.lists(st.one_of(st.none(), NAMES), max_size=2))
def test_piranhas_state_text_is_the_rendered_state_element(seed, red, blue, hints):
    rng = random.Random(seed)
    game = PIRANHAS.new_game(rng)
    game.set_display_names((red, blue))
    while True:
        for depth in (0, 1, 3):
            assert game.state_text(depth) == game.state_element().render(depth)
        move = PIRANHAS.random_move(game, rng)
        if move is None or game.outcome() is not None:
            break
        if rng.random() < 0.3:
            move = Move(move.x, move.y, move.direction, tuple(hints))
        game.apply(game.current_seat, move)


async def test_the_room_memento_and_move_request_are_the_general_rendering(start_server):
    server = await start_server()
    red, blue = await Raw.connect(server.door("xml").port), await Raw.connect(server.door("xml").port)
    await red.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    await red.read_until(b"<joined")
    await blue.send(b'<protocol><join gameType="swc_2019_piranhas"/>')
    await red.read_until(b"MoveRequest")
    (room,) = server.door("xml").lobby.rooms.values()
    expected = msg.memento(room.id, room.game.state_element()).render(1).encode()
    assert expected in bytes(red.received)
    assert room._memento() == expected
    assert msg.move_request(room.id).render(1).encode() in bytes(red.received)


class Recording(trio.abc.SendStream):
    def __init__(self) -> None:
        self.sends: list[bytes] = []

    async def send_all(self, data) -> None:
        self.sends.append(bytes(data))

    async def wait_send_all_might_not_block(self) -> None:
        pass

    async def aclose(self) -> None:
        pass


async def test_a_batch_leaves_each_connection_in_order_and_at_most_once(nursery):
    """Without a socket the batch hands its bytes to the writer task, in the order queued."""
    stream = Recording()
    connection = Connection(stream)
    nursery.start_soon(connection.write_loop)
    begin_batch()
    connection.send(msg.joined("R"))
    connection.send(msg.welcome("R", "red"))
    assert stream.sends == []  # nothing leaves before the step ends
    end_batch()
    await trio.sleep(0.01)
    begin_batch()
    connection.send(msg.move_request("R"))
    end_batch()
    await trio.sleep(0.01)
    assert b"".join(stream.sends) == (
        b"<protocol>" + msg.joined("R").render(1).encode() + msg.welcome("R", "red").render(1).encode()
        + msg.move_request("R").render(1).encode()
    )


BLOKUS = registry.get("swc_2027_blokus")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), skips=st.integers(0, 3))
def test_blokus_state_text_is_the_rendered_state_element(seed, skips):
    """Every ply of a random game (with a few skips, and the renderer asked at two depths)."""
    from swc_local.games.blokus.rules import SkipMove

    rng = random.Random(seed)
    game = BLOKUS.new_game(rng)
    for depth in (3, 0, 3):
        assert game.state_text(depth) == game.state_element().render(depth)
    while game.outcome() is None:
        move = BLOKUS.random_move(game, rng)
        if move is None:
            break
        if skips and game.turn >= 8 and rng.random() < 0.2:
            move, skips = SkipMove(game.position.current_color), skips - 1
        game.apply(game.current_seat, move)
        assert game.state_text(3) == game.state_element().render(3)
    assert game.state_text(1) == game.state_element().render(1)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_piranhas_2026_state_text_is_the_rendered_state_element(seed):
    for game in random_plies("swc_2026_piranhas", seed):
        for depth in (0, 3):
            assert game.state_text(depth) == game.state_element().render(depth)
