"""The shared transport (server/transport.py) on its own, with a line protocol it knows nothing of:
the accept loop's cap and refusal hook, bounded reads that yield, the write deadline, the two
ways to hang up, the door's stop (every connection, and one accepted as it stops, closed the
door's way). Each door's own tests cover its protocol on top of it."""

from __future__ import annotations

import trio

from swc_local.server import transport


class Lines:
    """A codec in miniature: whole lines out of a byte stream."""

    def __init__(self) -> None:
        self.buffer = b""

    def feed(self, data: bytes) -> list[bytes]:
        *lines, self.buffer = (self.buffer + data).split(b"\n")
        if len(self.buffer) > 100:
            raise ValueError("line too long")
        return lines


class Echo(transport.Connection):
    codec_errors = (ValueError,)

    def __init__(self, stream, peer, handled: list) -> None:
        super().__init__(stream, peer)
        self.codec = Lines()
        self.handled = handled

    def received(self, line: bytes) -> None:
        self.handled.append(line)
        if line == b"bye":
            self.close_politely("asked to")
        else:
            self.write(line.upper() + b"\n")

    def polite_farewell(self) -> bytes:
        return b"GOODBYE\n"

    def dropped_farewell(self) -> bytes:
        return b"DROPPED\n"


async def refuse(stream) -> None:
    await stream.send_all(b"FULL\n")


async def echo_door(nursery, handled: list, **options) -> transport.Transport:
    async def serve(connection: Echo) -> None:
        await connection.serve()

    door = transport.Transport("echo", transport.log, connect=lambda stream, peer: Echo(stream, peer, handled),
                               serve=serve, refuse=refuse, **options)
    door.port = await door.listen(0, "127.0.0.1")
    nursery.start_soon(door.run, nursery)
    return door


async def read_all(stream) -> bytes:
    received = b""
    with trio.fail_after(10):
        while data := await stream.receive_some(65536):
            received += data
    return received


async def all_closed(door: transport.Transport) -> None:
    with trio.fail_after(5):
        while door.connections:
            await trio.sleep(0.01)


async def greeted(door: transport.Transport, word: bytes) -> trio.SocketStream:
    """A client whose first line the door has answered (so its connection is open)."""
    client = await trio.open_tcp_stream("127.0.0.1", door.port)
    await client.send_all(word + b"\n")
    assert await client.receive_some(10) == word.upper() + b"\n"
    return client


async def test_messages_in_order_and_a_polite_close(nursery):
    handled: list[bytes] = []
    door = await echo_door(nursery, handled, max_connections=10)
    stream = await trio.open_tcp_stream("127.0.0.1", door.port)
    await stream.send_all(b"one\ntwo\nbye\nnever\n")
    assert await read_all(stream) == b"ONE\nTWO\nGOODBYE\n"
    assert handled == [b"one", b"two", b"bye"]  # nothing after the close is handled
    await all_closed(door)
    assert door.closed == 1


async def test_an_undecodable_stream_is_dropped_with_the_protocols_end(nursery):
    door = await echo_door(nursery, [], max_connections=10)
    stream = await trio.open_tcp_stream("127.0.0.1", door.port)
    await stream.send_all(b"ok\n")
    assert await stream.receive_some(10) == b"OK\n"
    await stream.send_all(b"x" * 200)
    assert await read_all(stream) == b"DROPPED\n"


async def test_one_write_of_many_messages_lets_the_others_run_between_batches(nursery):
    handled: list[bytes] = []
    door = await echo_door(nursery, handled, max_connections=10)
    seen = set()

    async def watch() -> None:
        while True:
            seen.add(len(handled))
            await trio.lowlevel.checkpoint()

    nursery.start_soon(watch)
    stream = await trio.open_tcp_stream("127.0.0.1", door.port)
    count = 4 * transport.MESSAGES_PER_TURN
    await stream.send_all(b"m\n" * count)
    with trio.fail_after(10):
        while len(handled) < count:
            await trio.sleep(0.01)
    assert seen & set(range(1, count))  # another task ran while the write was being handled


async def test_over_the_cap_the_refusal_hook_answers_and_the_slot_comes_back(nursery):
    door = await echo_door(nursery, [], max_connections=1)
    budget = door.budget
    used = budget.used
    first = await trio.open_tcp_stream("127.0.0.1", door.port)
    await first.send_all(b"hi\n")
    assert await first.receive_some(10) == b"HI\n"
    second = await trio.open_tcp_stream("127.0.0.1", door.port)
    assert await read_all(second) == b"FULL\n"
    assert budget.used == used + 1
    await first.aclose()
    with trio.fail_after(5):
        while door.connections or budget.used != used:
            await trio.sleep(0.01)


async def test_a_client_that_takes_no_data_is_cut_off_after_the_write_deadline(nursery):
    done = trio.Event()
    ended: list[Echo] = []

    async def serve(connection: Echo) -> None:
        connection.write_timeout = 0.2
        for _ in range(200):
            connection.write(b"y" * 65536 + b"\n")
        await connection.serve()
        ended.append(connection)
        done.set()

    door = transport.Transport("deaf", transport.log, max_connections=10,
                               connect=lambda stream, peer: Echo(stream, peer, []), serve=serve)
    port = await door.listen(0, "127.0.0.1")
    nursery.start_soon(door.run, nursery)
    deaf = await trio.open_tcp_stream("127.0.0.1", port)  # never reads
    with trio.fail_after(10):
        await done.wait()
    (connection,) = ended
    assert connection.lost and connection.timed_out and "took no data" in connection.reason
    await deaf.aclose()


def stop_with_reason(connection: Echo, reason: str) -> None:
    """A door's own way to end a connection when it stops: here its reason on the wire."""
    connection.hang_up(reason, b"STOPPED " + reason.encode() + b"\n")


async def test_stop_closes_every_open_connection_the_doors_way(nursery):
    door = await echo_door(nursery, [], max_connections=10, close=stop_with_reason)
    clients = [await greeted(door, word) for word in (b"one", b"two", b"three")]
    door.stop("maintenance")
    assert door.stopping == "maintenance"
    for client in clients:
        assert await read_all(client) == b"STOPPED maintenance\n"
    await all_closed(door)
    assert door.closed == 3


async def test_by_default_a_stopping_door_says_the_protocols_goodbye(nursery):
    door = await echo_door(nursery, [], max_connections=10)
    client = await greeted(door, b"hi")
    door.stop("server stopped")
    assert await read_all(client) == b"GOODBYE\n"


async def test_a_connection_accepted_as_the_door_stops_is_closed_the_doors_way(nursery):
    """Accepted just before the listeners closed, its handler runs after the stop: the transport
    closes it the door's way before the door serves it."""
    door = await echo_door(nursery, [], max_connections=10, close=stop_with_reason)
    door.stop("maintenance")
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    client = await trio.open_tcp_stream("127.0.0.1", port)
    accepted = await listeners[0].accept()  # the race: in the accept loop when the stop came
    nursery.start_soon(door.handle, accepted)
    assert await read_all(client) == b"STOPPED maintenance\n"
    await all_closed(door)
    assert door.closed == 1
    await listeners[0].aclose()


async def test_input_after_the_close_does_not_cost_the_client_its_last_bytes(nursery):
    """A client that writes on after the message that closes its connection (a goodbye, then the
    protocol's end in a second write) while it has not read its backlog yet: a TCP socket closed
    with unread input sends a reset instead of its end, which throws away what is still on its way
    to the client. The transport reads that input before it closes, so everything arrives."""
    door = await echo_door(nursery, [], max_connections=10)
    client = await greeted(door, b"hi")
    (connection,) = door.connections
    backlog = b"y" * 65535 + b"\n"
    for _ in range(64):  # 4 MiB: more than the sockets' buffers take while the client does not read
        connection.write(backlog)
    await client.send_all(b"bye\n")
    with trio.fail_after(5):
        while not connection.closing:
            await trio.sleep(0.001)
    await client.send_all(b"late\n")  # never read by the read loop: it ended with the close
    assert await read_all(client) == backlog * 64 + b"GOODBYE\n"
