"""An honest ``<join/>`` behind a flood of wrong passphrases is read within a few rounds of the
scheduler (issue 34: it was read more than 5 s late, after its client had left).

The cause was the accept loop: trio's ``SocketListener.accept`` yields after every connection, so
the kernel's queue drained at one connection per round, and a joiner queued behind N guessing
connections waited N rounds (each round also serving the whole flood); at ``maxConnections`` the
loop polled every 10 ms for a free slot. The rounds are counted with a trio instrument (one
``before_io_wait`` per round), not timed.
"""

from __future__ import annotations

import socket

import trio

from swc_local.server.config import Settings
from swc_local.server.app import Server

FLOOD = 300
JOIN = b'<protocol><join gameType="swc_2019_piranhas"/>'
GUESS = b'<protocol><authenticate passphrase="guess"/>'


class Rounds(trio.abc.Instrument):
    def __init__(self) -> None:
        self.count = 0

    def before_io_wait(self, timeout: float) -> None:
        self.count += 1


def queue_up(port: int, count: int, message: bytes) -> list[socket.socket]:
    """``count`` connections with ``message`` sent, made without yielding to the server: they wait
    in the kernel's accept queue (a loopback connect completes there)."""
    made = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(message)
        made.append(sock)
    return made


async def joined_after_rounds(joiner: socket.socket, rounds: Rounds) -> int:
    """Rounds of the scheduler until ``joiner`` (its ``<join/>`` sent) reads ``<joined>``."""
    joiner.setblocking(False)
    started, answer = rounds.count, b""
    while b"<joined" not in answer:
        await trio.lowlevel.wait_readable(joiner)
        chunk = joiner.recv(65536)
        assert chunk, f"closed without <joined>: {answer!r}"
        answer += chunk
    return rounds.count - started


async def test_a_join_behind_a_flood_of_wrong_passphrases_is_read_within_a_few_rounds(server):
    rounds = Rounds()
    trio.lowlevel.add_instrument(rounds)
    flood = queue_up(server.door("xml").port, FLOOD, GUESS)
    (joiner,) = queue_up(server.door("xml").port, 1, JOIN)
    try:
        with trio.fail_after(60):
            taken = await joined_after_rounds(joiner, rounds)
    finally:
        trio.lowlevel.remove_instrument(rounds)
        for sock in (*flood, joiner):
            sock.close()
    assert taken <= FLOOD // 10, f"{taken} rounds of the scheduler before the join was read"


async def test_at_max_connections_a_freed_slot_is_taken_at_once(nursery, mock_clock):
    """The clock stands still unless every task waits 5 real seconds (then it jumps to the next
    timer): the accept loop waiting at the cap must be woken by the close of a connection, not
    by a timer, so the join is answered without the clock moving."""
    mock_clock.autojump_threshold = 5.0
    server = await nursery.start(Server(Settings(free_ports=True, password="secret", seed=1, max_connections=4)).run)
    holders = queue_up(server.door("xml").port, 4, b"<protocol>")  # the four slots, held
    for _ in range(1000):
        if len(server.door("xml").connections) == 4:
            break
        await trio.testing.wait_all_tasks_blocked()
    assert len(server.door("xml").connections) == 4
    (joiner,) = queue_up(server.door("xml").port, 1, JOIN)  # accepted, then held at the cap
    await trio.testing.wait_all_tasks_blocked()
    before = trio.current_time()
    holders[0].sendall(b'<authenticate passphrase="guess"/>')  # wrong: the server closes it, a slot is free
    try:
        await joined_after_rounds(joiner, Rounds())
    finally:
        for sock in (*holders, joiner):
            sock.close()
    assert trio.current_time() == before, "the accept loop waited for a timer, not for the close"
