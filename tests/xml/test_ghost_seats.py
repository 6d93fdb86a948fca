"""No ghost seats in the XML lobby (issue 34): a joiner is never paired with a player whose
connection is already gone, and a player who left before the game started gives the room back."""

from __future__ import annotations

import socket
import struct
import time

import trio

from swc_local.protocol.element import Element

from tests.wire import Raw

JOIN = '<protocol><join gameType="swc_2019_piranhas"/>'


async def seated(server, count: int) -> None:
    with trio.fail_after(10):
        while sum(1 for room in server.door("xml").lobby.rooms.values() for slot in room.slots if slot.occupied) < count:
            await trio.sleep(0.01)


def reset(raw: Raw) -> None:
    """Close with a reset (SO_LINGER 0), as a crashed client's kernel does."""
    raw.stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    raw.stream.socket.close()


async def test_a_joiner_is_not_paired_with_a_seat_whose_connection_is_gone(server):
    ghost = await Raw.connect(server.door("xml").port)
    await ghost.send(JOIN)
    await seated(server, 1)
    joiner = await Raw.connect(server.door("xml").port)
    await joiner.send("<protocol>")
    with trio.fail_after(10):
        while len(server.door("xml").connections) < 2:
            await trio.sleep(0.01)
        await trio.sleep(0.1)  # the joiner's <protocol> is read
    (connection,) = [c for c in server.door("xml").connections if not c.slots]
    reset(ghost)
    time.sleep(0.2)  # the reset arrives; the server has not run since (no checkpoint): its reader did not see it
    server.door("xml").lobby.receive(connection, Element("join", {"gameType": "swc_2019_piranhas"}))
    (slot,) = connection.slots
    others = [other for other in slot.room.slots if other is not slot]
    assert not any(other.occupied for other in others), "paired with the player whose connection is gone"
    assert len(server.door("xml").lobby.rooms) == 1  # the ghost's room was given up


async def test_two_joiners_after_a_reset_play_each_other(server):
    from swc_local.client.bot import play_game
    from swc_local.games import registry

    ghost = await Raw.connect(server.door("xml").port)
    await ghost.send(JOIN)
    await seated(server, 1)
    reset(ghost)
    plugin = registry.get("swc_2019_piranhas")
    results = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for seed in (1, 2):
                async def play(seed=seed):
                    results.append(await play_game(plugin, "127.0.0.1", server.door("xml").port, None, seed))
                nursery.start_soon(play)
    assert len(results) == 2


async def test_a_closed_connection_never_reads_the_descriptor_a_new_one_got():
    """The transport reads a connection's socket by its descriptor number. Once the stream is
    closed the kernel hands that number to the next socket: a reader woken just before the
    close read the newcomer's bytes, or waited beside its reader (trio's BusyResourceError,
    which ended a whole server under benchmarks/fuzz.py)."""
    from swc_local.server.transport import Connection

    left, right = trio.socket.socketpair()
    connection = Connection(trio.SocketStream(left))
    number = connection._fd
    await connection.stream.aclose()
    newcomer, other = socket.socketpair()  # the lowest free descriptor: the one just closed
    try:
        assert number in (newcomer.fileno(), other.fileno())
        (other if newcomer.fileno() == number else newcomer).sendall(b"<newcomer's bytes/>")
        with trio.fail_after(5):
            assert await connection.receive_some(100) == b""
    finally:
        newcomer.close()
        other.close()
        right.close()
