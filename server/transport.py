"""The one transport of every door: an accept loop and a connection base that know no protocol.

Why one: each door used to bring its own accept loop and its own connection class, so a limit
(the ``maxConnections`` wait, the process's connection budget, a write deadline, the bound on the
work per read) was written, and fixed, up to three times.  As ``trio.serve_listeners`` knows
nothing of what it serves, this module knows no protocol; a door contributes hooks:

* :class:`Transport` (one per door) accepts, holds a connection at the door's cap while others
  keep closing, admits it within the door's cap and the process budget (``server/limits.py``), or
  refuses it the door's way (``refuse``: the XML door sends ``<protocol/>``, the others close at
  once), retries accepts that fail for lack of descriptors and logs refusals once per burst.  It
  keeps the door's open connections (arrival order) and how many have closed: ``busy()`` and the
  wait at the cap read them.  :meth:`Transport.stop` is what every door's ``stop(reason)`` does
  to its connections: it stops accepting, closes every open connection the door's way (its
  ``close`` hook) and closes that way, too, a connection accepted just before the listeners
  closed (its handler would otherwise serve it as if nothing had happened).
* :class:`Connection` (one per client, subclassed by each family) reads at most
  :data:`RECEIVE_SIZE` bytes at a time, hands them to the family's codec (``codec.feed`` returns
  whole messages) and each message to :meth:`Connection.received`, yielding to every other task
  after :data:`MESSAGES_PER_TURN` messages; it queues output (the door's logic never awaits a
  socket) for a writer task with a write deadline, and ends the two ways a server hangs up:
  :meth:`Connection.drop` (logged, the protocol's end of stream) and
  :meth:`Connection.close_politely` (the protocol's goodbye first).  A family whose game awaits
  each write (ReversiXT reads a player only on its turn, as the reference does) uses the same
  deadline through :meth:`Connection.send_now` and the same bounded reads.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import math
import os
import select
import socket
from collections.abc import Awaitable, Callable

import trio

from swc_local.server.limits import BurstLog, accept_retrying, process_budget

log = logging.getLogger("swc.connection")

RECEIVE_SIZE = 65536
"""The most bytes one read takes from a client."""
MESSAGES_PER_TURN = 32
"""Messages of one connection handled before its reader yields to every other task."""
ACCEPT_BURST = 64
"""Connections the XML door takes from the kernel's queue at one wake-up of its accept loop at the
most (see Transport._accept_loop)."""
FULL_WAIT_SECONDS = 0.25
"""At a door's cap, a connection just accepted is refused once no connection closed for this long."""
SEND_CHUNK = 256 << 10
"""A backlog goes out in pieces of this size, each with its own write deadline, so a client that
reads slowly but reads keeps its connection."""
MAX_QUEUED_BYTES = 64 << 20
"""A client that reads nothing while this much is queued for it is cut off."""
CLOSE_FLUSH_SECONDS = 2.0
"""How long a connection being closed may take to read its last bytes before it is cut off:
a dropped client that only writes must not keep its connection (and its games) for ever."""
DRAIN_LIMIT = 1 << 16
"""Unread input taken before a close (so it is a clean FIN, not a reset) at the most."""

_ids = itertools.count(1)
_POLLRDHUP = getattr(select, "POLLRDHUP", 0x2000)  # Linux: the peer closed (or reset) its end


def peer_name(stream: trio.SocketStream) -> str:
    try:
        return "%s:%s" % stream.socket.getpeername()[:2]
    except OSError:
        return "?"


async def close_at_once(stream: trio.SocketStream) -> None:
    """The default refusal: no byte, the socket closed."""
    await trio.aclose_forcefully(stream)


def close_politely(connection: Connection, reason: str) -> None:
    """The default way a stopping door closes a connection: the protocol's goodbye, then the close."""
    connection.close_politely(reason)


def _queue_of(listener: trio.SocketListener) -> socket.socket:
    """The listening socket's queue as a plain socket (a duplicate descriptor), to take waiting
    connections without trio's yield after each."""
    queue = socket.socket(fileno=os.dup(listener.socket.fileno()))
    queue.setblocking(False)  # already so (the descriptor's flags are shared): an empty queue raises
    return queue


def _accept_waiting(queue: socket.socket) -> trio.SocketStream | None:
    """A connection already waiting in the listening socket's queue, or None (none, or an accept
    error: the next ``accept_retrying`` meets it again and handles it)."""
    try:
        sock, _ = queue.accept()
    except OSError:
        return None
    return trio.SocketStream(trio.socket.from_stdlib_socket(sock))


class Transport:
    """One door's accept loop and its open connections (see the module docstring).

    ``connect(stream, peer)`` makes the family's :class:`Connection`; ``serve(connection)`` is the
    door's handler, run with the connection counted as open and a slot of the process budget held.
    ``admit()`` may return why a connection is refused (the default: the door's cap); ``evict()``
    may close an idle connection of the door to make room when the process budget is spent;
    ``refuse(stream)`` answers a refused connection the protocol's way; ``full_wait`` > 0 holds a
    connection at the cap while others keep closing (a flood of short-lived connections must not
    lock an honest client out); ``accept_burst`` > 1 takes that many waiting connections at a
    time (see :meth:`_accept_loop`).  The stream is closed after the handler, whatever happened.
    ``close(connection, reason)`` is how the door ends a connection when it stops (the default:
    :meth:`Connection.close_politely`); see :meth:`stop`.
    """

    def __init__(self, label: str, logger: logging.Logger, *, max_connections: int,
                 connect: Callable[[trio.SocketStream, str], Connection],
                 serve: Callable[[Connection], Awaitable[None]],
                 admit: Callable[[], str | None] | None = None, evict: Callable[[], bool] | None = None,
                 refuse: Callable[[trio.SocketStream], Awaitable[None]] = close_at_once,
                 full_wait: float = 0.0, accept_burst: int = 1,
                 close: Callable[[Connection, str], None] = close_politely) -> None:
        self.label = label
        self.max_connections = max_connections
        self.connect = connect
        self.serve = serve
        self.admit = admit or self.below_cap
        self.evict = evict
        self.refuse = refuse
        self.full_wait = full_wait
        self.accept_burst = max(1, accept_burst)
        self.close = close
        self.stopping: str | None = None  # why the door stopped (see stop)
        self.connections: dict[Connection, None] = {}  # open ones, in the order they came
        self.closed = 0  # how many have ended (the wait at the cap)
        self.budget = process_budget()
        self._refused = BurstLog(logger)  # a line per burst, not per connection
        self._trouble = BurstLog(logger)
        self._accepting = trio.CancelScope()
        self._starting = 0  # accepted, their handlers not yet run (see _wait_for_a_free_slot)
        self._slot_freed = trio.lowlevel.ParkingLot()
        """Where the accept loop waits at the cap for a connection to close. It polled every 10 ms
        before, so at the cap the door admitted at most one connection per 10 ms whatever the
        closing rate: a flood of short-lived wrong passphrases (each needs a slot) queued up in
        the kernel, and an honest ``<join/>`` behind it was read seconds late, after its client
        had given up (issue 34)."""
        self._listeners: list[trio.SocketListener] = []

    def below_cap(self) -> str | None:
        if len(self.connections) >= self.max_connections:
            return f"{len(self.connections)} connections open (maxConnections)"
        return None

    async def listen(self, port: int, host: str | None) -> int:
        """Open the door's listening sockets (before the door says it started); the port bound."""
        self._listeners = await trio.open_tcp_listeners(port, host=host)
        return self._listeners[0].socket.getsockname()[1]

    async def run(self, nursery: trio.Nursery) -> None:
        """Accept on every listener until :meth:`stop_accepting`; each connection's handler runs
        as a task of ``nursery`` (so it outlives the listeners)."""
        with self._accepting:
            async with trio.open_nursery() as accepting:
                for listener in self._listeners:
                    accepting.start_soon(self._accept_loop, listener, nursery)

    def stop_accepting(self) -> None:
        """Close the listening sockets; open connections go on."""
        self._accepting.cancel()

    def stop(self, reason: str) -> None:
        """The door stops: no more accepts, and every open connection is closed the door's way
        (``close``); so is one accepted just before the listeners closed, before its handler runs."""
        self.stopping = reason
        self.stop_accepting()
        for connection in list(self.connections):
            self.close(connection, reason)

    async def _accept_loop(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        """What ``trio.serve_listeners`` does, less its ``aclose_forcefully`` after every handler
        (a cancelled checkpoint: an exception raised and caught per connection): :meth:`handle`
        closes its stream only if the handler did not.

        Each wake-up takes up to ``accept_burst`` waiting connections from the kernel's queue:
        ``SocketListener.accept`` yields after every connection, so the queue drained at one
        connection per round of the scheduler, and under a flood of short-lived connections
        (wrong passphrases) an honest ``<join/>`` queued behind them was read seconds late, after
        its client had given up (issue 34). The handlers of one burst start in the same round,
        in an order trio shuffles: a door that numbers its clients by arrival keeps 1."""
        async with listener:
            with _queue_of(listener) if self.accept_burst > 1 else contextlib.nullcontext() as queue:
                while True:
                    stream: trio.SocketStream | None = await accept_retrying(listener, self._trouble, f"{self.label}: ")
                    taken = 0
                    while stream is not None:
                        if self.full_wait > 0:
                            try:
                                await self._wait_for_a_free_slot()  # the next ones wait in the kernel's queue
                            except BaseException:  # the door stops meanwhile: do not leak the socket
                                await trio.aclose_forcefully(stream)
                                raise
                        self._starting += 1  # counted at the cap until its handler runs
                        nursery.start_soon(self._handle_accepted, stream)
                        taken += 1
                        stream = _accept_waiting(queue) if taken < self.accept_burst else None

    async def _wait_for_a_free_slot(self) -> None:
        """At the cap, hold the connection just accepted while connections keep closing.

        A flood of short-lived connections (wrong passphrases) frees slots within milliseconds:
        the client just accepted then gets a slot instead of being refused, and the ones after it
        wait in the kernel's accept queue, so an honest player arriving during the flood gets in.
        A cap held by lasting connections (none closed for ``full_wait``) still refuses.
        """
        closed, since = self.closed, trio.current_time()
        while len(self.connections) + self._starting >= self.max_connections:
            with trio.move_on_at(since + self.full_wait):
                await self._slot_freed.park()  # woken by the next close, not by a timer (see _slot_freed)
            if self.closed != closed:
                closed, since = self.closed, trio.current_time()
            elif trio.current_time() - since >= self.full_wait:
                return

    async def handle(self, stream: trio.SocketStream) -> None:
        """One accepted connection: admitted and served, or refused; its stream closed after."""
        try:
            await self._admit_and_serve(stream)
        finally:
            if stream.socket.fileno() != -1:  # not closed yet (refused, or the handler failed)
                await trio.aclose_forcefully(stream)

    async def _handle_accepted(self, stream: trio.SocketStream) -> None:
        self._starting -= 1  # its own admit() counts it from here
        await self.handle(stream)

    async def _admit_and_serve(self, stream: trio.SocketStream) -> None:
        peer = peer_name(stream)
        why = self.admit()
        budget = self.budget
        if why is None and not budget.try_acquire():
            if self.evict is not None and self.evict():
                budget.force_acquire()  # the evicted connection gives its slot back as it closes
            else:
                why = f"{budget.used} connections open in the process (its file limit)"
        if why is not None:
            self._refused.note("%s: connection refused (%s): %s", self.label, peer, why)
            await self.refuse(stream)
            return
        try:
            connection = self.connect(stream, peer)
            self.connections[connection] = None
            if self.stopping is not None:  # accepted just before the listeners closed
                self.close(connection, self.stopping)
            try:
                await self.serve(connection)
            finally:
                self.connections.pop(connection, None)
                self.closed += 1
                self._slot_freed.unpark_all()
        finally:
            budget.release()


class Connection:
    """One client's connection, whatever its protocol (see the module docstring).

    Subclasses set :attr:`codec` (``feed(bytes) -> messages``, raising one of
    :attr:`codec_errors`) and override the hooks: :meth:`received` (one whole message),
    :meth:`undecodable`, :meth:`stream_ended`, :meth:`idle_ended`, :meth:`polite_farewell` and
    :meth:`dropped_farewell` (the protocol's bytes for the two ways to hang up).
    """

    codec = None
    codec_errors: tuple[type[BaseException], ...] = ()
    idle_timeout = 0.0
    """Seconds a connection may stay without :attr:`engaged` (joined, authenticated, welcomed)."""
    write_timeout = 0.0
    """Seconds a piece of output may wait for the client to take it (0: for ever)."""
    max_queued_bytes = MAX_QUEUED_BYTES
    paced = False
    """True: one queued write per send (:meth:`_next_paced`), not everything queued at once."""

    def __init__(self, stream: trio.abc.Stream | None, peer: str = "?") -> None:
        self.id = next(_ids)
        self.peer = peer
        self.stream = stream
        self.engaged = False  # see idle_timeout
        self.muted = False  # input is read but ignored (a connection waiting for its close)
        self.closing = False  # no more input is processed; the writer closes after flushing
        self.lost = False  # nothing can be written any more (the peer went away, or was cut off)
        self.timed_out = False  # a write ran out of write_timeout
        self.eof = False  # the client's end of stream was read (by a family that reads on demand)
        self.reading = True  # the read loop still runs (the writer ends it when it hangs up)
        self.reason = ""  # why it ended, for the door's logic
        self._helpers: trio.Nursery | None = None
        self._helper_count = 0
        self._queue: list[bytes] = []
        self._queued = 0
        self._wakeup = trio.Event()
        self.cancel_scope = trio.CancelScope()
        self._last_send = -math.inf  # trio time of the last send
        self._sent_bytes = 0  # everything sent so far
        self._writing = False  # the writer task is inside a send
        self._fd = (
            stream.socket.fileno() if isinstance(stream, trio.SocketStream) and os.name == "posix" else None
        )  # for direct non-blocking reads and writes

    def __repr__(self) -> str:
        return f"<connection {self.id} {self.peer}>"

    # -- running ------------------------------------------------------------------------------

    async def serve(self) -> None:
        """Read until the client or the door ends the connection, write until all is sent."""
        with self.cancel_scope:
            async with trio.open_nursery() as nursery:
                self._helpers = nursery
                nursery.start_soon(self.write_loop)
                await self.read_loop()
                # The nursery now waits for the writer to flush and close (no sleep to be
                # cancelled: an exception per connection saved).
                self.reading = False

    def _owns_fd(self) -> bool:
        """The cached descriptor is still this connection's socket. Once the stream is closed the
        kernel may hand the number to the next accepted connection: reading or waiting on it
        then would steal that connection's bytes or (trio) fail with BusyResourceError, which
        ended a whole server under the fuzzer (issue 34)."""
        return isinstance(self.stream, trio.SocketStream) and self.stream.socket.fileno() == self._fd

    def has_input(self) -> bool:
        """True when bytes (or the end of stream) wait in the socket unread: the client spoke,
        whether or not its reader has run since (a poll without waiting)."""
        if self._fd is None or not self._owns_fd():
            return False
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        try:
            return bool(poller.poll(0))
        except OSError:
            return True

    def peer_gone(self) -> bool:
        """True when the client has gone (end of stream or reset) even if the reader has not
        seen it yet: a poll of the socket without waiting and without reading. The lobby asks
        it before it pairs a waiting player (issue 34: ghost seats)."""
        if self.closing or self.lost:
            return True
        if self._fd is None:
            return False
        if not self._owns_fd():
            return True
        poller = select.poll()
        poller.register(self._fd, select.POLLIN | _POLLRDHUP)
        try:
            events = poller.poll(0)
        except OSError:
            return True
        return any(mask & (_POLLRDHUP | select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, mask in events)

    def start_helper(self, function, *args) -> None:
        """A task of this connection (a heartbeat): it ends with the connection."""
        assert self._helpers is not None
        self._helper_count += 1
        self._helpers.start_soon(function, *args)

    # -- input --------------------------------------------------------------------------------

    async def receive_some(self, max_bytes: int) -> bytes:
        """The next bytes from the client (b"" at its end): one ``recv`` per wake-up.

        ``trio.SocketStream.receive_some`` tries ``recv`` before it waits, so every message
        that was not there yet costs a failed ``recv`` and a caught BlockingIOError, and a
        successful one an extra scheduling round; here the reader waits first.
        """
        fd = self._fd
        if fd is None:
            assert self.stream is not None
            return await self.stream.receive_some(max_bytes)
        while True:
            await trio.lowlevel.wait_readable(fd)
            if not self._owns_fd():  # closed while this task was woken: the number may be another's now
                return b""
            try:
                return os.read(fd, max_bytes)
            except BlockingIOError:
                continue
            except OSError:  # reset by the peer: the same as its end
                return b""

    async def read_loop(self) -> None:
        """Bounded reads through the codec; whole messages to :meth:`received`.

        The idle timeout is a deadline on the reads of a connection that is not engaged yet, not
        a task of its own: a short-lived connection then costs no timer task to start and cancel
        (issue 15, a flood of wrong passphrases).
        """
        codec = self.codec
        idle_timeout = self.idle_timeout
        idle_deadline = trio.current_time() + idle_timeout if idle_timeout > 0 else math.inf
        while not self.closing:
            try:
                if self.engaged or idle_deadline == math.inf:
                    data = await self.receive_some(RECEIVE_SIZE)
                else:
                    data = None
                    with trio.move_on_at(idle_deadline):
                        data = await self.receive_some(RECEIVE_SIZE)
                    if data is None:
                        if not self.engaged and not self.closing:
                            self.idle_ended()
                        continue  # ended, or it engaged meanwhile: then it reads on
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                self.stream_ended()
                return
            try:
                messages = codec.feed(data)
            except self.codec_errors as error:
                self.undecodable(error)
                return
            if self.muted:
                continue
            for count, message in enumerate(messages, 1):
                if count % MESSAGES_PER_TURN == 0:
                    # One write may hold thousands of messages: let every other task run
                    # between batches, so no connection's input can stall the others.
                    await trio.lowlevel.checkpoint()
                    if self.closing:
                        return
                try:
                    self.received(message)
                except Exception:
                    log.exception("%r: unexpected error handling %s", self, self.describe(message))
                    self.drop("internal error")
                if self.closing:
                    return

    def received(self, message) -> None:
        """One whole message from the client (the family's logic; synchronous)."""
        raise NotImplementedError

    def describe(self, message) -> str:
        return "a message"

    def undecodable(self, error: BaseException) -> None:
        self.drop(f"protocol error: {error}")

    def stream_ended(self) -> None:
        self.drop("connection lost (end of stream)")

    def idle_ended(self) -> None:
        self.drop(f"idle for {self.idle_timeout:g} s")

    # -- output -------------------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        """Queue bytes for the writer task (never waits)."""
        if self.closing or self.lost:
            return
        self._push(data)

    def _push(self, data: bytes) -> None:
        if data:
            self._queue.append(data)
            self._queued += len(data)
        if self._queued > self.max_queued_bytes and not self.closing:
            self._overflow()
        self._queued_more()

    def _queued_more(self) -> None:
        self._wakeup.set()

    def _overflow(self) -> None:
        """Too much queued for a client that does not read: cut it off at once."""
        log.warning("%r dropped: it does not read (%d bytes queued)", self, self._queued)
        self.reason = self.reason or "it does not read"
        self.closing = self.lost = True
        self.cancel_scope.cancel()
        self._wakeup.set()

    def polite_farewell(self) -> bytes:
        """The protocol's goodbye and end of stream (XML: CloseConnection, ``</protocol>``);
        :attr:`reason` is already set, for a protocol whose goodbye says why."""
        return b""

    def dropped_farewell(self) -> bytes:
        """The protocol's end of stream without a goodbye (XML: ``</protocol>``)."""
        return b""

    def hang_up(self, reason: str, farewell: bytes = b"") -> None:
        """Close once what is queued (then ``farewell``) is sent; further output is ignored."""
        if self.closing or self.lost:
            return
        self.reason = reason
        self._push(farewell)
        self.closing = True
        self._wakeup.set()

    def drop(self, reason: str) -> None:
        """The protocol's end of stream, hang up (the official XML server's "drop")."""
        if self.closing or self.lost:
            return
        log.info("%r dropped: %s", self, reason)
        self.reason = reason  # the farewell may say why
        self.hang_up(reason, self.dropped_farewell())

    def close_politely(self, reason: str, level: int = logging.INFO) -> None:
        """The protocol's goodbye, its end of stream, hang up (the official XML server's "close").

        ``level``: DEBUG where the caller already logged the reason in a summary (a flood of
        rate-limited passphrase attempts must not cost a log line each).
        """
        if self.closing or self.lost:
            return
        log.log(level, "%r closed: %s", self, reason)
        self.reason = reason  # the goodbye may say why
        self.hang_up(reason, self.polite_farewell())

    async def _next_paced(self) -> bytes:
        """The next write of a paced connection (one queued write per send)."""
        data = self._queue.pop(0)
        self._queued -= len(data)
        return data

    async def write_loop(self) -> None:
        """Drain the queue into the socket; hang up once a close was queued and everything sent.

        The queue is checked again after every send: a close queued while a send was in
        progress must still go out before the socket is closed.
        """
        assert self.stream is not None
        while True:
            if self._queue and not self.lost:
                if self.paced and not self.closing:
                    data = await self._next_paced()
                else:
                    data = b"".join(self._queue) if len(self._queue) > 1 else self._queue[0]
                    self._queue.clear()
                    self._queued = 0
                await self._send(data)
                del data  # do not keep the last message alive while idle
                continue
            if self.closing or self.lost:
                if isinstance(self.stream, trio.SocketStream):
                    self._drop_unread_input()
                    await self.stream.aclose()  # a close and a checkpoint, never blocks: no timer
                else:
                    with trio.move_on_after(1):
                        await self.stream.aclose()
                if self.reading or self._helper_count:
                    self.cancel_scope.cancel()
                return
            await self._wakeup.wait()
            self._wakeup = trio.Event()

    def _drop_unread_input(self) -> None:
        """Read (and ignore) what input has arrived but was not read, without waiting, at most
        :data:`DRAIN_LIMIT` bytes: a TCP socket closed with unread input sends a reset instead of
        its end of stream, and the reset throws away what is still on its way to the client (the
        last messages, the farewell) -- e.g. the ``</protocol>`` a client writes after its
        goodbye while its backlog is still being sent."""
        if self._fd is None:
            return
        drained = 0
        while drained < DRAIN_LIMIT:
            try:
                data = os.read(self._fd, 65536)
            except OSError:  # BlockingIOError: nothing more has arrived
                return
            if not data:
                return
            drained += len(data)

    async def _send(self, data: bytes) -> None:
        """One backlog, in pieces; a piece the client does not take within the write deadline
        (:data:`CLOSE_FLUSH_SECONDS` once closing) ends the connection."""
        if self.lost:
            return
        closing = self.closing
        limit = CLOSE_FLUSH_SECONDS if closing else self.write_timeout
        if len(data) <= SEND_CHUNK:
            sent = await self._write_within((data,), limit)
        else:
            sent = True
            for start in range(0, len(data), SEND_CHUNK):
                sent = await self._write_within((data[start:start + SEND_CHUNK],), limit)
                if not sent:
                    break
        if sent:
            return
        self.lost = True
        self._queue.clear()
        self._queued = 0
        if self.timed_out:
            if closing:
                log.info("%r did not read its last %d bytes; cut off", self, len(data))
            else:
                self.reason = self.reason or f"the client took no data for {limit:g} s"
                log.info("%r: closed, %s", self, self.reason)
        else:
            self.reason = self.reason or "write failed"

    async def _write_within(self, pieces, limit: float) -> bool:
        """Send ``pieces`` within ``limit`` seconds (0: no limit); False when the client is gone
        or took too long (then :attr:`timed_out`; the stream is unusable after a cancelled send)."""
        self._writing = True
        try:
            with trio.move_on_after(limit) if limit > 0 else contextlib.nullcontext() as scope:
                for piece in pieces:
                    if piece:
                        await self.stream.send_all(piece)
                        self._sent_bytes += len(piece)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return False
        finally:
            self._writing = False
        if scope is not None and scope.cancelled_caught:
            self.timed_out = True
            return False
        self._last_send = trio.current_time()
        return True

    async def send_now(self, *pieces: bytes) -> bool:
        """Write now, bypassing the queue, within :attr:`write_timeout` (for a family whose game
        awaits each write); False when it failed or timed out."""
        if self.closing or self.lost or self.timed_out:
            return False
        return await self._write_within(pieces, self.write_timeout)

    async def close_now(self) -> None:
        """Take what unread input there is (bounded, waiting at most 1 ms for more) so the close
        is a clean FIN and the last bytes arrive whole, then close (even while cancelled)."""
        if self.closing:
            return
        self.closing = True
        try:
            drained = 0
            while drained < DRAIN_LIMIT and not self.eof:
                with trio.move_on_after(0.001):
                    data = await self.receive_some(4096)
                    if not data:
                        break
                    drained += len(data)
                    continue
                break
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        with trio.CancelScope(shield=True):
            await self.stream.aclose()
