"""The connection's writer task: ordering and the close sequence under a slow socket."""

from __future__ import annotations

import trio
import trio.testing

from swc_local.protocol import messages as msg
from swc_local.server.xml.connection import Connection


class SlowStream(trio.abc.SendStream):
    """Blocks every send until the test lets it through."""

    def __init__(self) -> None:
        self.sent = bytearray()
        self.gate = trio.Event()
        self.closed = False

    async def send_all(self, data) -> None:
        await self.gate.wait()
        self.sent += data

    async def wait_send_all_might_not_block(self) -> None:
        pass

    async def aclose(self) -> None:
        self.closed = True


async def test_a_close_queued_during_a_send_is_still_written(nursery):
    stream = SlowStream()
    connection = Connection(stream)
    connection.send(msg.joined("R"))
    nursery.start_soon(connection.write_loop)
    await trio.testing.wait_all_tasks_blocked()  # the writer is now blocked inside send_all
    connection.send(msg.left("R"))
    connection.drop("test")
    stream.gate.set()
    with trio.fail_after(2):
        while not stream.closed:
            await trio.sleep(0.001)
    assert bytes(stream.sent) == b'<protocol>\n  <joined roomId="R"/>\n  <left roomId="R"/>\n</protocol>'


async def test_messages_queued_together_leave_in_one_send(nursery):
    stream = SlowStream()
    stream.gate.set()
    sends = []
    original = stream.send_all

    async def counting(data):
        sends.append(bytes(data))
        await original(data)

    stream.send_all = counting
    connection = Connection(stream)
    connection.send(msg.welcome("R", "red"))
    connection.send(msg.move_request("R"))
    nursery.start_soon(connection.write_loop)
    # Not a sleep: a sleep that ends while the writer has not run yet (a loaded machine) puts
    # both tasks in one scheduling batch, whose order trio randomises.  Once every task is
    # blocked the writer has sent what it will and waits for more.
    await trio.testing.wait_all_tasks_blocked()
    assert len(sends) == 1 and sends[0].count(b"<room") == 2


class Recording(SlowStream):
    """Records every send on its own."""

    def __init__(self) -> None:
        super().__init__()
        self.gate.set()
        self.sends: list[bytes] = []

    async def send_all(self, data) -> None:
        self.sends.append(bytes(data))


class FakePeer:
    """What the server sees of the client's socket: how many bytes it has read."""

    def __init__(self, stream: Recording) -> None:
        self.stream = stream
        self.read = 0

    def consumed(self) -> int:
        return self.read

    def read_all(self) -> None:
        self.read = sum(map(len, self.stream.sends))


def paced_connection(stream) -> Connection:
    connection = Connection(stream)
    connection.dialect = "modern"
    return connection


async def test_a_modern_client_gets_its_next_message_only_after_reading_the_last(nursery, autojump_clock):
    stream = Recording()
    connection = paced_connection(stream)
    peer = connection.peer_queue = FakePeer(stream)
    for message in (msg.joined("R"), msg.welcome("R", "red"), msg.move_request("R")):
        connection.send(message)
    nursery.start_soon(connection.write_loop)
    await trio.sleep(0.5)  # the client reads nothing for half a second
    assert len(stream.sends) == 1 and stream.sends[0].startswith(b"<protocol>\n  <joined")
    peer.read_all()
    await trio.sleep(0.2)
    assert len(stream.sends) == 2 and b"welcomeMessage" in stream.sends[1]
    await trio.sleep(0.5)
    assert len(stream.sends) == 2  # not before the client read the welcome
    peer.read_all()
    await trio.sleep(0.2)
    assert len(stream.sends) == 3 and b"MoveRequest" in stream.sends[2]


async def test_a_modern_client_that_does_not_read_gets_its_messages_after_the_pace_limit(nursery, autojump_clock):
    from swc_local.server.xml.connection import PACE_LIMIT_SECONDS

    stream = Recording()
    connection = paced_connection(stream)
    connection.peer_queue = FakePeer(stream)  # never reads
    connection.send(msg.joined("R"))
    connection.send(msg.left("R"))
    nursery.start_soon(connection.write_loop)
    await trio.sleep(PACE_LIMIT_SECONDS * 0.9)
    assert len(stream.sends) == 1
    await trio.sleep(PACE_LIMIT_SECONDS * 0.2)
    assert len(stream.sends) == 2


async def test_a_modern_client_whose_queue_cannot_be_seen_gets_one_message_per_send(nursery, autojump_clock):
    stream = Recording()
    connection = paced_connection(stream)
    connection.peer_queue = None
    for message in (msg.joined("R"), msg.welcome("R", "red"), msg.move_request("R")):
        connection.send(message)
    nursery.start_soon(connection.write_loop)
    await trio.sleep(0.1)
    assert len(stream.sends) == 3
    assert stream.sends[0].startswith(b"<protocol>\n  <joined") and b"MoveRequest" in stream.sends[2]
