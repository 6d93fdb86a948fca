"""The connection's writer task: ordering and the close sequence under a slow socket."""

from __future__ import annotations

import trio

from swc_local.protocol import messages as msg
from swc_local.server.connection import Connection


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
    await trio.sleep(0.01)  # the writer is now blocked inside send_all
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
    await trio.sleep(0.01)
    assert len(sends) == 1 and sends[0].count(b"<room") == 2
