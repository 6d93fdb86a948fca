"""One client connection: a reader task, a writer task, and the two ways the server hangs up.

Room and lobby logic is synchronous and never awaits a socket: it calls :meth:`Connection.send`,
which only queues bytes.  A writer task drains the queue, so a slow or dead reader can never stall
a room or another connection, and everything queued in one step (a memento and the move request
that follows it) leaves in a single ``send`` -- one TCP segment instead of several, which is what
keeps a move round trip far below the delayed-ACK time the official server paid.

The official server ends a connection in one of two ways (spec §2), and both are reproduced:

* :meth:`close_politely` ("close"): ``<sc.protocol.responses.CloseConnection/>`` then
  ``</protocol>``, for lobby errors the handler recognised;
* :meth:`drop`: just ``</protocol>`` (or ``<protocol/>`` when nothing was ever sent), for malformed
  XML, unknown elements and anything else.
"""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING

import trio

from swc_local.protocol.element import Element
from swc_local.protocol.messages import close_connection
from swc_local.protocol.writer import StreamWriter

if TYPE_CHECKING:
    from swc_local.server.room import PlayerSlot

log = logging.getLogger("swc.connection")

MAX_QUEUED_BYTES = 64 << 20
"""A client that reads nothing while this much is queued for it is dropped."""
CLOSE_FLUSH_SECONDS = 2.0
"""How long a connection being closed may take to read its last bytes before it is cut off:
a dropped client that only writes must not keep its connection (and its rooms) for ever."""

_ids = itertools.count(1)


class Connection:
    """Server-side state of one TCP client."""

    def __init__(self, stream: trio.abc.Stream | None, peer: str = "?") -> None:
        self.id = next(_ids)
        self.peer = peer
        self.stream = stream
        self.writer = StreamWriter()
        self.is_admin = False
        self.engaged = False  # has joined a game or authenticated at some point (idle timeout)
        self.failed_logins = 0
        self.ignored_admin_requests = 0  # admin requests sent without authenticating (log once)
        self.slots: list[PlayerSlot] = []
        self.closing = False  # no more input is processed; the writer closes after flushing
        self.muted = False  # input is read but ignored (a rate-limited login waiting for its close)
        self.dialect: str | None = None  # "classic"/"modern" once a message showed it (modern_lobby.route)
        self.fallback_dialect = "classic"  # how to answer before that (server key lobbyDialect)
        self.envelope: str | None = None  # the modern envelope of the last room joined ("2022"/"2025")
        self.protocol_error = False  # dropped for unparseable input (2025+ rooms: LEFT PROTOCOL_ERROR)
        self.lost = False  # the peer went away; nothing can be written
        self.reading = True  # the server's read loop still runs (the writer cancels it when it ends)
        self._queue: list[bytes] = []
        self._queued = 0
        self._wakeup = trio.Event()
        self.cancel_scope = trio.CancelScope()

    def __repr__(self) -> str:
        return f"<connection {self.id} {self.peer}>"

    # -- output -------------------------------------------------------------------------------

    def send(self, message: Element | bytes | str) -> None:
        """Queue one message (an Element, or text already rendered at depth 1)."""
        if self.closing or self.lost:
            return
        self._push(self.writer.message(message))

    def close_politely(self, reason: str, level: int = logging.INFO) -> None:
        """CloseConnection, ``</protocol>``, hang up (the official "close").

        ``level``: DEBUG where the caller already logged the reason in a summary (a flood of
        rate-limited passphrase attempts must not cost a log line each).
        """
        if self.closing or self.lost:
            return
        log.log(level, "%r closed: %s", self, reason)
        self._push(self.writer.message(close_connection()))
        self._finish()

    def drop(self, reason: str) -> None:
        """``</protocol>`` (or ``<protocol/>``), hang up (the official "drop").

        A connection that speaks the modern dialect is closed without a word instead: the 2022+
        servers never end their stream on their own (ostseeschach_2022.md A.3, A.4).
        """
        if self.closing or self.lost:
            return
        log.info("%r dropped: %s", self, reason)
        if (self.dialect or self.fallback_dialect) == "modern":
            self.closing = True
            self._wakeup.set()
            return
        self._finish()

    def close_stream(self, reason: str) -> None:
        """``</protocol>`` (or ``<protocol/>``), hang up: the 2022+ answer to CloseConnection."""
        if self.closing or self.lost:
            return
        log.info("%r closed: %s", self, reason)
        self._finish()

    def _finish(self) -> None:
        self._push(self.writer.close())
        self.closing = True

    def _push(self, data: bytes) -> None:
        if data:
            self._queue.append(data)
            self._queued += len(data)
        if self._queued > MAX_QUEUED_BYTES and not self.closing:
            log.warning("%r dropped: it does not read (%d bytes queued)", self, self._queued)
            self.closing = self.lost = True
            self.cancel_scope.cancel()
        self._wakeup.set()

    async def write_loop(self) -> None:
        """Drain the queue into the socket; hang up once a close was queued and everything sent.

        The queue is checked again after every send: a close queued while a send was in
        progress must still go out before the socket is closed.
        """
        assert self.stream is not None
        while True:
            if self._queue and not self.lost:
                data = b"".join(self._queue) if len(self._queue) > 1 else self._queue[0]
                self._queue.clear()
                self._queued = 0
                try:
                    if self.closing:
                        with trio.move_on_after(CLOSE_FLUSH_SECONDS) as flush:
                            await self.stream.send_all(data)
                        if flush.cancelled_caught:
                            log.info("%r did not read its last %d bytes; cut off", self, len(data))
                            self.lost = True
                    else:
                        await self.stream.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    self.lost = True
                del data  # do not keep the last memento alive while idle
                continue
            if self.closing or self.lost:
                if isinstance(self.stream, trio.SocketStream):
                    await self.stream.aclose()  # a close and a checkpoint, never blocks: no timer
                else:
                    with trio.move_on_after(1):
                        await self.stream.aclose()
                if self.reading:
                    self.cancel_scope.cancel()
                return
            await self._wakeup.wait()
            self._wakeup = trio.Event()
