"""Split a client's XML byte stream into messages, sans I/O.

Feed bytes in, get events out (the h11 pattern): :meth:`StreamReader.feed` returns the messages
that the new bytes completed.  Nothing here knows about sockets or about any game.

Spec-conformance notes (classic lobby spec §1):

* The first start tag is the root, whatever its name; every direct child of the root is one
  message; boundaries come purely from nesting, and a message is handed out as soon as its end tag
  (or ``/>``) arrived, with no look-ahead.  Expat's "reparse deferral" (expat >= 2.6) would hold a
  small complete message back until more bytes arrive, so it is switched off.
* The root closing (``</protocol>``) yields :class:`StreamEnded`; the official server treats it
  like a lost connection.  Bytes after it are ignored.
* Bytes before the first ``<`` are skipped: the official server left a connection that sent plain
  text open and silent (golden capture ``malformed/M3``).  This is our reading of that capture;
  what kXML did with text *followed* by a root was not captured.
* DTDs, entity declarations and undefined entities are refused (:class:`ProtocolError`), so no
  entity expansion of any kind can happen.  The official server's XStream/kXML would reject them
  too, with a drop.
* Limits: a message (with the whitespace before it) larger than ``max_message_bytes`` or nested
  deeper than ``max_depth`` is a :class:`ProtocolError`, checked before the bytes are parsed.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.parsers import expat

from swc_local.protocol.element import Element

__all__ = ["ProtocolError", "Message", "StreamEnded", "StreamReader"]

DEFAULT_MAX_MESSAGE_BYTES = 1 << 20
DEFAULT_MAX_DEPTH = 32


class ProtocolError(Exception):
    """The client's stream is not acceptable; the reason is for the server log."""


@dataclass(slots=True)
class Message:
    """One complete direct child of the root."""

    element: Element


@dataclass(slots=True)
class StreamEnded:
    """The client closed the root element."""


Event = Message | StreamEnded


class StreamReader:
    """Incremental reader for one connection's client-to-server stream."""

    def __init__(
        self,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        max_depth: int = DEFAULT_MAX_DEPTH,
    ) -> None:
        self.max_message_bytes = max_message_bytes
        self.max_depth = max_depth
        self.root_tag: str | None = None
        self.ended = False
        self._started = False  # a '<' has been seen, expat owns the stream
        self._stack: list[Element] = []
        self._events: list[Event] = []
        self._pending = 0  # bytes fed since the last completed message
        self._parser = self._make_parser()

    def _make_parser(self) -> expat.XMLParserType:
        parser = expat.ParserCreate()
        parser.buffer_text = True
        parser.buffer_size = 1024  # client messages are small; saves ~7 KiB per connection
        parser.ordered_attributes = False
        if hasattr(parser, "SetReparseDeferralEnabled"):
            parser.SetReparseDeferralEnabled(False)
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._text
        parser.StartDoctypeDeclHandler = self._refuse_dtd
        parser.EntityDeclHandler = self._refuse_entity
        parser.ExternalEntityRefHandler = self._refuse_entity
        return parser

    # -- public API ---------------------------------------------------------------------------

    def feed(self, data: bytes) -> list[Event]:
        """Consume ``data``; return the events it completed.  Raises ProtocolError."""
        if self.ended or not data:
            return []
        if not self._started:
            start = data.find(b"<")
            if start < 0:
                return []
            data = data[start:]
            self._started = True
        self._pending += len(data)
        if self._pending > self.max_message_bytes:
            raise ProtocolError(
                f"message larger than {self.max_message_bytes} bytes (max message size)"
            )
        try:
            self._parser.Parse(data, False)
        except (expat.ExpatError, LookupError, UnicodeError, ValueError) as error:
            # LookupError: an XML declaration naming an unknown encoding
            if not self.ended:  # junk after the root's end is ignored, as after EOF
                raise ProtocolError(f"malformed XML: {error}") from None
        events, self._events = self._events, []
        return events

    # -- expat callbacks ----------------------------------------------------------------------

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        if self.ended:
            return
        depth = len(self._stack)
        if self.root_tag is None:
            self.root_tag = tag
            self._stack.append(Element(tag))
            return
        if depth >= self.max_depth:
            raise ProtocolError(f"nesting deeper than {self.max_depth} (max depth)")
        element = Element(tag, attrs)
        if depth > 1:
            self._stack[-1].children.append(element)
        self._stack.append(element)

    def _end(self, tag: str) -> None:
        if self.ended:
            return
        element = self._stack.pop()
        if element.text and element.text.isspace():
            element.text = ""  # indentation between children is not content
        depth = len(self._stack)
        if depth == 1:
            self._events.append(Message(element))
            self._pending = 0
        elif depth == 0:
            self.ended = True
            self._events.append(StreamEnded())

    def _text(self, data: str) -> None:
        if len(self._stack) > 1:
            self._stack[-1].text += data

    def _refuse_dtd(self, *_args: object) -> None:
        raise ProtocolError("DTD declarations are not accepted")

    def _refuse_entity(self, *_args: object) -> int:
        raise ProtocolError("entity declarations are not accepted")
