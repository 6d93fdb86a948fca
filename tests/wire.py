"""Test helpers that talk to a running server the way a bot does: raw bytes over TCP."""

from __future__ import annotations

import trio

from swc_local.client.connection import ClientConnection
from swc_local.protocol.element import Element
from swc_local.protocol.reader import Message, StreamReader


class RecordingStream(trio.abc.Stream):
    """A socket stream that keeps a copy of every byte received."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.received = bytearray()

    async def send_all(self, data) -> None:
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes=None) -> bytes:
        data = await self.stream.receive_some(max_bytes)
        self.received += data
        return data

    async def aclose(self) -> None:
        await self.stream.aclose()


async def connect(port: int) -> tuple[ClientConnection, RecordingStream]:
    """A client connection to localhost:port that records what it receives."""
    stream = RecordingStream(await trio.open_tcp_stream("127.0.0.1", port))
    return ClientConnection(stream), stream


class Raw:
    """A bare socket: send any bytes, read everything until the server closes."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.received = bytearray()
        self.closed = False

    @classmethod
    async def connect(cls, port: int) -> Raw:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def send(self, data: bytes | str) -> None:
        await self.stream.send_all(data.encode() if isinstance(data, str) else data)

    async def read_until_closed(self, timeout: float = 5) -> bytes:
        with trio.fail_after(timeout):
            while True:
                try:
                    data = await self.stream.receive_some(65536)
                except trio.BrokenResourceError:
                    data = b""
                if not data:
                    return bytes(self.received)
                self.received += data

    async def read_until(self, marker: bytes, timeout: float = 5) -> bytes:
        with trio.fail_after(timeout):
            while marker not in self.received:
                data = await self.stream.receive_some(65536)
                if not data:
                    raise AssertionError(f"closed before {marker!r}; got {bytes(self.received)!r}")
                self.received += data
        return bytes(self.received)

    async def is_open_after(self, seconds: float) -> bool:
        """True when the server neither closed nor sent anything within ``seconds``."""
        with trio.move_on_after(seconds):
            data = await self.stream.receive_some(65536)
            self.received += data
            self.closed = self.closed or not data
            return False
        return True

    async def still_connected(self, quiet: float = 0.1) -> bool:
        """Read until ``quiet`` seconds pass without data; True if the server did not close."""
        while not await self.is_open_after(quiet):
            if self.closed:
                return False
        return True

    async def aclose(self) -> None:
        await self.stream.aclose()


def messages(stream: bytes) -> list[Element]:
    """Every message in a server-to-client byte stream."""
    return [event.element for event in StreamReader(max_message_bytes=1 << 26, max_depth=64).feed(stream) if isinstance(event, Message)]


def data_class(message: Element) -> str | None:
    data = message.find("data")
    return data.get("class") if data is not None else None
