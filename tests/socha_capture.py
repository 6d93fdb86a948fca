"""Replay a capture of two socha clients that played through a proxy, byte for byte.

Such a capture (``NAME/{ONE,TWO}_sent.xml`` and ``NAME/{ONE,TWO}_recv.xml``) holds the exact
bytes each real client sent and received, but no timestamps we could wait on. The driver
connects ONE, waits for its ``joined``, connects TWO, and sends each client's captured messages
in order: the join at once, the k-th move after the k-th ``moveRequest`` arrived. After the
client's ``<left/>`` it closes its socket, as socha does. Finally every connection's bytes must
equal the capture, with room ids and reservation codes mapped from ours to the captured ones.

For a prepared game (``joinPrepared`` in the sent bytes) the caller prepares the room first and
passes our reservation codes; they replace the captured ones in what the clients send.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import trio

from tests.scenario import UUID

_MESSAGE = re.compile(rb"<room .*?</room>\n", re.S)
MOVE_REQUEST = b'<data class="moveRequest"/>'


@dataclass
class SochaClient:
    team: str
    sent: list[bytes]  # the join (with the <protocol> opening), then one chunk per move
    golden: bytes
    received: bytearray = field(default_factory=bytearray)


def load(folder: Path) -> dict[str, SochaClient]:
    clients = {}
    for team in ("ONE", "TWO"):
        data = (folder / f"{team}_sent.xml").read_bytes()
        first = _MESSAGE.search(data)
        join = data if first is None else data[: first.start()]
        moves = _MESSAGE.findall(data)
        clients[team] = SochaClient(team, [join, *moves], (folder / f"{team}_recv.xml").read_bytes())
    return clients


def normalise(received: bytes, golden: bytes) -> bytes:
    """Our ids replaced by the captured ones, in order of first appearance."""
    ours = list(dict.fromkeys(UUID.findall(received)))
    theirs = list(dict.fromkeys(UUID.findall(golden)))
    mapping = dict(zip(ours, theirs))
    return UUID.sub(lambda m: mapping.get(m[0], m[0]), received)


async def _play(port: int, client: SochaClient, joined: trio.Event,
                reservation: bytes | None, timeout: float) -> None:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    done = trio.Event()

    async def pump() -> None:
        while True:
            try:
                data = await stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                done.set()
                return
            client.received += data
            if b"<joined " in client.received:
                joined.set()
            if b"<left " in client.received:
                done.set()

    async def wait_for(predicate) -> None:
        while not predicate() and not done.is_set():
            await trio.sleep(0.001)

    with trio.fail_after(timeout):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(pump)
            join = client.sent[0]
            if reservation is not None:
                join = re.sub(rb'reservationCode="[^"]*"', b'reservationCode="' + reservation + b'"', join)
            await stream.send_all(join)
            await joined.wait()
            room = UUID.search(client.received[client.received.index(b"<joined "):])[0]
            for number, move in enumerate(client.sent[1:], start=1):
                await wait_for(lambda: client.received.count(MOVE_REQUEST) >= number)
                if done.is_set():
                    break
                await stream.send_all(UUID.sub(room, move))
            await done.wait()
            await stream.aclose()
            nursery.cancel_scope.cancel()


async def replay(port: int, folder: Path, reservations: dict[str, str] | None = None,
                 timeout: float = 60) -> dict[str, SochaClient]:
    """Play the capture in ``folder`` against the server on ``port``; returns the clients."""
    clients = load(folder)
    async with trio.open_nursery() as nursery:
        for team, client in clients.items():
            joined = trio.Event()
            code = None if reservations is None else reservations[team].encode()
            nursery.start_soon(_play, port, client, joined, code, timeout)
            with trio.fail_after(timeout):
                await joined.wait()  # ONE must have its seat before TWO connects
    return clients
