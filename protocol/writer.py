"""The server-to-client framing of one connection, sans I/O (classic lobby spec §1).

The official server writes an XStream object stream: ``<protocol>`` goes out lazily with the
first message, every message is preceded by ``\\n`` and a two-space indent, and the root is only
closed when the server closes the connection (``\\n</protocol>``, or ``<protocol/>`` when nothing
was ever sent).  Messages are passed in already rendered at depth 1, so a memento rendered once
can be sent to several connections.
"""

from __future__ import annotations

from swc_local.protocol.element import Element

OPEN = b"<protocol>"
CLOSE = b"\n</protocol>"
EMPTY = b"<protocol/>"


class StreamWriter:
    """Produces the bytes for one connection; remembers whether the root was opened."""

    __slots__ = ("opened", "closed")

    def __init__(self) -> None:
        self.opened = False
        self.closed = False

    def message(self, rendered: bytes | str | Element) -> bytes:
        """Bytes for one message (``rendered`` is depth-1 text or an Element)."""
        if self.closed:
            return b""
        if type(rendered) is bytes and self.opened:  # the common case: a message rendered once
            return rendered
        if isinstance(rendered, Element):
            rendered = rendered.render(1)
        if isinstance(rendered, str):
            rendered = rendered.encode("utf-8")
        if self.opened:
            return rendered
        self.opened = True
        return OPEN + rendered

    def close(self) -> bytes:
        """The bytes that end the stream; nothing after it is written."""
        if self.closed:
            return b""
        self.closed = True
        return CLOSE if self.opened else EMPTY
