"""A small trio client for the classic protocol: connect, send requests, receive messages.

It reads the server's stream with the same sans-I/O reader the server uses (the server's
``<protocol>`` root is just another root), so a bot sees exactly the messages the server sent.
"""

from __future__ import annotations

import argparse

import trio

from swc_local.protocol.element import Element
from swc_local.protocol.reader import Message, StreamEnded, StreamReader

RECEIVE_SIZE = 65536
MAX_SERVER_MESSAGE = 64 << 20


def port_argument(text: str) -> int:
    """argparse type of a client's ``--port``: 0..65535, anything else a one-line usage error."""
    if not text.strip().isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (accepted: 0..65535)")
    return int(text)


class ConnectionClosed(Exception):
    """The server ended its stream or the socket closed."""


class ClientConnection:
    """One connection to a server, from the client side."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.reader = StreamReader(max_message_bytes=MAX_SERVER_MESSAGE, max_depth=256)
        self._inbox: list[Element] = []
        self._opened = False
        self.closed = False

    @classmethod
    async def connect(cls, host: str = "localhost", port: int = 13050) -> ClientConnection:
        return cls(await trio.open_tcp_stream(host, port))

    async def send(self, message: Element | str) -> None:
        """Send one request; the first call also opens the ``<protocol>`` root."""
        text = message if isinstance(message, str) else message.render(0)
        if not self._opened:
            text = "<protocol>" + text
            self._opened = True
        await self.stream.send_all(text.encode("utf-8"))

    async def receive(self) -> Element:
        """The next message; raises ConnectionClosed at the end of the server's stream."""
        while not self._inbox:
            if self.closed:
                raise ConnectionClosed()
            try:
                data = await self.stream.receive_some(RECEIVE_SIZE)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                self.closed = True
                raise ConnectionClosed()
            for event in self.reader.feed(data):
                if isinstance(event, Message):
                    self._inbox.append(event.element)
                elif isinstance(event, StreamEnded):
                    self.closed = True
        return self._inbox.pop(0)

    async def close(self) -> None:
        """End the stream politely (``</protocol>``) and hang up."""
        try:
            if self._opened:
                await self.stream.send_all(b"</protocol>")
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        await self.stream.aclose()
        self.closed = True

    async def __aenter__(self) -> ClientConnection:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if not self.closed:
            await self.close()
