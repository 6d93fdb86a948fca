"""The XML door's connection: the shared base (server/transport.py) plus what XML adds.

Room and lobby logic is synchronous and never awaits a socket: it calls :meth:`Connection.send`,
which only queues bytes.  The base's writer task drains the queue, so a slow or dead reader can
never stall a room or another connection.  What this family adds: the codec and the lobby as the
receiver of every message, the batch write at the end of a step, the pacing of 2022+ clients and
the protocol's two farewells.

How the queue leaves depends on the dialect the client speaks:

* 2018/2019 (classic): everything queued in one step (a memento and the move request that follows
  it) leaves in a single ``send`` -- one TCP segment instead of several, which is what keeps a
  move round trip far below the delayed-ACK time the official server paid.
* 2022+ (modern): one message per ``send``, and each message only once the client has read the
  one before it (or :data:`PACE_LIMIT_SECONDS` passed).  The official ``socha`` clients return at
  most one message per ``recv`` and then wait in the next ``recv`` (0.1 s socket timeout) even
  when the next message is already in their buffer, so a memento and a move request that arrive
  in one read cost every move 0.1 s (``../shared/golden/socha_timing/``).  On loopback the server
  sees the client's receive queue (:mod:`~swc_local.server.xml.peer_reads`) and holds the next message
  until it is empty, which typically takes the client's wake-up time (about 0.1 ms); for a peer
  it cannot see, a fixed gap of :data:`PACE_GAP_SECONDS` stands in.  The bytes are the same
  either way; only their split into segments and their timing change.  Conformance note: the
  official server split its messages into ~1 KB pieces with work in between, so socha saw the
  move request in a read of its own by accident; here it is by design.  The move request's clock
  still starts when the room queues it (a request held for a client that does not read is
  charged to that client, as the official server's clock would).

The official server ends a connection in one of two ways (spec §2), and both are reproduced:

* :meth:`close_politely` ("close"): ``<sc.protocol.responses.CloseConnection/>`` then
  ``</protocol>``, for lobby errors the handler recognised;
* :meth:`drop`: just ``</protocol>`` (or ``<protocol/>`` when nothing was ever sent), for malformed
  XML, unknown elements and anything else.
"""

from __future__ import annotations

import logging
import math
import os

import trio

from swc_local.protocol.element import Element
from swc_local.protocol.messages import close_connection
from swc_local.protocol.reader import ProtocolError, StreamEnded, StreamReader
from swc_local.protocol.writer import StreamWriter
from swc_local.server import transport
from swc_local.server.xml import peer_reads

SILENT_DROPS = frozenset({"modern", "2021"})
"""Dialects whose server drops a connection without ending its stream (no ``</protocol>``)."""
CLOSE_TAGS = {"2021": "sc.protocol.CloseConnection"}
"""The server's CloseConnection where it is not the 2018/2019 ``sc.protocol.responses`` one
(21.x moved the class and registered no alias, spec blokus_2021.md §8.1)."""

log = logging.getLogger("swc.connection")

PACE_LIMIT_SECONDS = 1.0
"""A 2022+ client's next message is held at most this long for it to read the one before."""
PACE_GAP_SECONDS = 0.002
"""Between two messages to a 2022+ client whose receive queue the server cannot see."""
PACE_QUICK_LOOKS = (0.0003,)
"""Sleeps before the first looks at a client's receive queue: a client that waited in ``recv``
has read by then."""
PACE_STEP_SECONDS = 0.006
"""Then the step between looks at a busy client.  A socha client spends several milliseconds on
each message it read (xsdata parse, ``gc.collect()``) before it asks for the next one, which
hides a late look of up to one step.  Every timed look costs the server a wake-up (50-100 µs of
CPU on a small VM), so the steps are no finer than that."""
PACE_EXPECTED_SHARE = 0.6
"""A busy client is next looked at after this share of how long it was busy the last time."""
PACE_STEP_SHARE = 0.4
"""... and then every this share of it (at least :data:`PACE_STEP_SECONDS`): a client that was
slow to get to its next read is as slow with the message it reads, which hides a late look."""
PACE_BUSY_MAX_SECONDS = 0.1
"""Longer waits (a client that thought or stalled) count as this much for the next estimate."""
_UNKNOWN = object()

_batch: list[Connection] | None = None
"""Connections that queued bytes while the current input message was handled (see begin_batch)."""


def begin_batch() -> None:
    """Collect what handling one input message queues, to write it at :func:`end_batch`.

    Why: a room answers a move with a memento to both players and a move request, queued in one
    synchronous step.  Waking each connection's writer task for that costs two task switches and
    a trio ``send_all`` (two more scheduling rounds) per connection and move; writing the queued
    bytes at the end of the step, from the reader that handled the move, costs one non-blocking
    ``send`` per connection.  Whatever cannot be written at once (a full socket buffer, a writer
    already busy, a connection closing, a 2022+ client that is paced) is left to the writer
    task as before, so a slow reader still never stalls anyone.
    """
    global _batch
    _batch = []


def end_batch() -> None:
    """Write what the batch queued (see :func:`begin_batch`)."""
    global _batch
    batch, _batch = _batch, None
    if batch:
        for connection in batch:
            connection._flush()


class Connection(transport.Connection):
    """Server-side state of one TCP client of the XML door (the shared base: server/transport.py)."""

    codec_errors = (ProtocolError,)

    def __init__(self, stream: trio.abc.Stream | None, peer: str = "?", *, lobby=None, settings=None) -> None:
        super().__init__(stream, peer)
        self.writer = StreamWriter()
        self.is_admin = False
        self.ignored_admin_requests = 0  # admin requests sent without authenticating (log once)
        self.slots: list = []  # its seats: server/xml/room.py's PlayerSlot (the room knows the connection, not back)
        self.dialect: str | None = None  # "classic"/"modern" once a message showed it (dialects.route)
        self.fallback_dialect = "classic"  # how to answer before that (server key lobbyDialect)
        self.envelope: str | None = None  # the modern envelope of the last room joined ("2022"/"2025")
        self.protocol_error = False  # dropped for unparseable input (2025+ rooms: LEFT PROTOCOL_ERROR)
        self.close_alias = True  # <close/> closes (plugin.close_alias of the last room joined)
        self.peer_queue: object = _UNKNOWN  # peer_reads.PeerQueue; None when it cannot be seen
        self._busy_hold = 0.0  # how long this client was last busy before reading (2022+ pacing)
        self._batched = False  # in the current batch (begin_batch)
        self.lobby = lobby
        if settings is not None:  # the XML door's connections; tests make bare ones
            self.codec = StreamReader(settings.max_message_bytes, settings.max_depth)
            self.idle_timeout = settings.idle_timeout
            self.fallback_dialect = settings.lobby_dialect

    # -- input (hooks of the shared read loop) -------------------------------------------------

    def received(self, event) -> None:
        if type(event) is StreamEnded:
            self.drop("the client ended its stream")
            return
        begin_batch()  # what the message queues is written once it is handled
        try:
            self.lobby.receive(self, event.element)
        finally:
            end_batch()

    def describe(self, event) -> str:
        return f"<{event.element.tag}>"

    def undecodable(self, error: BaseException) -> None:
        self.protocol_error = True
        self.drop(f"protocol error: {error}")

    def idle_ended(self) -> None:
        # Only connections that never joined or authenticated: after a game ends the official
        # server keeps a player's connection open for as long as the client likes.
        self.drop(f"idle for {self.idle_timeout:g} s without joining or authenticating")

    # -- output -------------------------------------------------------------------------------

    def send(self, message: Element | bytes | str) -> None:
        """Queue one message (an Element, or text already rendered at depth 1)."""
        if self.closing or self.lost:
            return
        self._push(self.writer.message(message))

    def polite_farewell(self) -> bytes:
        tag = CLOSE_TAGS.get(self.dialect or self.fallback_dialect)
        goodbye = close_connection() if tag is None else Element(tag)
        return self.writer.message(goodbye) + self.writer.close()

    def dropped_farewell(self) -> bytes:
        """``</protocol>`` (or ``<protocol/>``); nothing for a connection that speaks the modern
        dialect or 2021's: those servers never end their stream on their own when they drop a
        connection (ostseeschach_2022.md A.3, A.4; blokus_2021.md §8.2)."""
        return b"" if (self.dialect or self.fallback_dialect) in SILENT_DROPS else self.writer.close()

    def close_stream(self, reason: str) -> None:
        """``</protocol>`` (or ``<protocol/>``), hang up: the 2022+ answer to CloseConnection."""
        if self.closing or self.lost:
            return
        log.info("%r closed: %s", self, reason)
        self.hang_up(reason, self.writer.close())

    def _queued_more(self) -> None:
        if _batch is not None and not self.lost:
            if not self._batched:
                self._batched = True
                _batch.append(self)
            return
        self._wakeup.set()

    def _flush(self) -> None:
        """End of a batch: one non-blocking write of everything queued, or the writer's job."""
        self._batched = False
        queue = self._queue
        if not queue:
            return
        if self._fd is None or self._writing or self.closing or self.lost:
            self._wakeup.set()
            return
        if self.paced:
            self._flush_paced()
            return
        data = b"".join(queue) if len(queue) > 1 else queue[0]
        try:
            sent = os.write(self._fd, data)
        except BlockingIOError:
            sent = 0
        except OSError:  # the writer's send_all meets the same error and ends the connection
            self._wakeup.set()
            return
        self._sent_bytes += sent
        if sent == len(data):
            queue.clear()
            self._queued = 0
        else:
            queue[:] = [data[sent:]]
            self._queued = len(data) - sent
            self._wakeup.set()

    def _flush_paced(self) -> None:
        """A 2022+ client that has read everything gets the first queued message at once; the
        rest (and a client still reading) is the writer task's, which paces them."""
        queue = self._queue
        if self._sent_bytes:
            peer = self._peer()
            if peer is None or peer.consumed() not in (self._sent_bytes, None):
                self._wakeup.set()  # not read yet, or cannot be seen: the writer paces it
                return
        data = queue[0]
        try:
            sent = os.write(self._fd, data)  # type: ignore[arg-type]
        except BlockingIOError:
            sent = 0
        except OSError:
            self._wakeup.set()
            return
        self._sent_bytes += sent
        self._last_send = trio.current_time()
        if sent == len(data):
            queue.pop(0)
            self._queued -= sent
        else:
            queue[0] = data[sent:]
            self._queued -= sent
        if queue:
            self._wakeup.set()

    def _peer(self):
        """The client's socket as the kernel reports it (None: cannot be seen, see peer_reads)."""
        peer = self.peer_queue
        if peer is _UNKNOWN:
            sock = getattr(self.stream, "socket", None)
            self.peer_queue = peer = peer_reads.observe(sock) if sock is not None else None
        return peer

    @property
    def paced(self) -> bool:
        """One message per read: the 2022+ clients (see the module docstring)."""
        return (self.dialect or self.fallback_dialect) == "modern"

    async def _next_paced(self) -> bytes:
        """One message, once the client has read the ones before (see :meth:`_until_read`)."""
        self._writing = True  # holds a message while it waits: no direct writes meanwhile
        data = self._queue.pop(0)
        self._queued -= len(data)
        try:
            await self._until_read()
        finally:
            self._writing = False
        return data

    async def _until_read(self) -> None:
        """Wait until the client has read everything sent so far (2022+ pacing), at most
        :data:`PACE_LIMIT_SECONDS`; a peer whose queue cannot be seen gets a fixed gap.

        Two cases: a client that waited in ``recv`` reads within its wake-up time, which a
        yield and the quick looks of :data:`PACE_QUICK_LOOKS` catch.  A client still busy with
        the message before reads when it is done, after about as long as it took the last time
        (:attr:`_busy_hold`), so the next look is taken shortly before that and then in steps of a
        share of it: every timed look costs the server a wake-up.
        """
        if self._last_send == -math.inf:
            return  # nothing sent yet
        peer = self._peer()
        if peer is None:
            gap = self._last_send + PACE_GAP_SECONDS - trio.current_time()
            if gap > 0:
                await trio.sleep(gap)
            return
        sent = self._sent_bytes
        if peer.consumed() in (sent, None):
            return
        # A yield first: a client waiting in recv (or one in this process) usually reads while
        # the other ready tasks run, and a yield costs far less than a timed sleep.
        await trio.lowlevel.checkpoint()
        if self.closing or self.lost or peer.consumed() in (sent, None):
            return
        started = trio.current_time()
        for pause in PACE_QUICK_LOOKS:
            await trio.sleep(pause)
            if self.closing or self.lost or peer.consumed() in (sent, None):
                return
        waited = trio.current_time() - started
        jump = PACE_EXPECTED_SHARE * self._busy_hold - waited
        if jump > PACE_STEP_SECONDS:
            await trio.sleep(jump)
        step = max(PACE_STEP_SECONDS, PACE_STEP_SHARE * self._busy_hold)
        while not (self.closing or self.lost or peer.consumed() in (sent, None)):
            waited = trio.current_time() - started
            if waited >= PACE_LIMIT_SECONDS:
                log.debug("%r has not read its last message for %g s; sending on", self, PACE_LIMIT_SECONDS)
                return
            await trio.sleep(step)
        held = min(trio.current_time() - started, PACE_BUSY_MAX_SECONDS)
        self._busy_hold = held if self._busy_hold == 0 else (self._busy_hold + held) / 2
