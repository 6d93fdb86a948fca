"""The Robo Rally front door on trio: listen, read lines, write lines, Alive, room clocks.

Each connection has a reader (bounded reads, :class:`~swc_local.protocol.roborally.LineDecoder`),
a writer draining a byte queue (so the synchronous lobby never waits on a socket) and, after
``Welcome``, an ``Alive`` task (spec roborally.md §7.1). Each running game has one clock task
that sleeps until its current wait's deadline (:meth:`Room.deadline`) or until the game moved on.
Whatever a client sends, the worst outcome is that its own connection is closed: an unexpected
exception is logged with its traceback and handled as a disconnect.

``swc roborally`` runs :class:`RoboRallyDoor` with ``single_game=True``: after the game's
``GameFinished`` and the close delay the door returns and the process exits. Inside ``swc
serve`` the door keeps serving (spec §10.1).

``stop(reason)`` (SIGTERM/SIGINT, the Door contract of ``server/door.py``): no ``GameFinished``
(a stopped game has no winner); every running game's log is written with ``"unfinished":
reason`` in its header, and every connection is closed once what was queued for it is sent, as
the protocol closes any connection (spec §7).
"""

from __future__ import annotations

import collections
import logging
import math
import time

import trio

from swc_local.protocol.roborally import LineDecoder, LineTooLong
from swc_local.server.limits import BurstLog, serve_within_budget
from swc_local.server.roborally.lobby import (
    CLOSED, NEW, SPECTATOR, WELCOMED, Door, Peer, RoboRallySettings, Room, write_log_file,
)

log = logging.getLogger("swc.roborally")

KEEP_FINISHED = 100
"""Finished rooms and log paths a door remembers (for swc match and tests); older ones are forgotten."""
IDLE_STATES = (NEW, WELCOMED, SPECTATOR)

RECEIVE_SIZE = 65536
SEND_CHUNK = 256 << 10
"""A backlog goes out in pieces of this size, so a client that reads shows progress between them."""
MAX_QUEUED_BYTES = 16 << 20
STALLED_SECONDS = 1.0
"""Over MAX_QUEUED_BYTES, a client is dropped only if none of its writes finished for this long:
a reader that reads keeps its connection whatever others made the door queue for it."""


class _Connection:
    def __init__(self, stream: trio.SocketStream, name: str, write_timeout: float = 0.0) -> None:
        self.stream = stream
        self.queue: list[bytes] = []
        self.queued = 0
        self.wakeup = trio.Event()
        self.closing = False
        self.reason = ""
        self.scope = trio.CancelScope()
        self.write_timeout = write_timeout
        self.progress = trio.current_time()  # when a write last finished, or data began to wait
        self.sending = False
        self.opened = self.progress
        self.peer = Peer(self.write, self.close, name)

    def write(self, data: bytes) -> None:
        if self.closing:
            return
        if not self.queue and not self.sending:
            self.progress = trio.current_time()  # nothing was waiting: the client is not behind
        self.queue.append(data)
        self.queued += len(data)
        if self.queued > MAX_QUEUED_BYTES and trio.current_time() - self.progress > STALLED_SECONDS:
            self.close("the client reads nothing (output queue full)")
        self.wakeup.set()

    def close(self, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self.reason = reason
            self.wakeup.set()

    async def write_loop(self) -> None:
        while True:
            await self.wakeup.wait()
            self.wakeup = trio.Event()
            while self.queue:
                data = b"".join(self.queue)
                self.queue.clear()
                self.queued = 0
                self.sending = True
                sent = await self._send(data)
                self.sending = False
                if not sent:
                    self.queue.clear()
                    self.closing = True
                    break
            if self.closing:
                with trio.move_on_after(1):
                    await self.stream.aclose()
                self.scope.cancel()
                return

    async def _send(self, data: bytes) -> bool:
        """Send in pieces; False when the client is gone or took no piece within write_timeout."""
        for start in range(0, len(data), SEND_CHUNK):
            with trio.move_on_after(self.write_timeout if self.write_timeout > 0 else math.inf) as scope:
                try:
                    await self.stream.send_all(data[start:start + SEND_CHUNK])
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    self.reason = self.reason or "write failed"
                    return False
            if scope.cancelled_caught:
                self.reason = self.reason or f"the client took no data for {self.write_timeout:g} s"
                log.info("%r: closed, %s", self.peer, self.reason)
                return False
            self.progress = trio.current_time()
        return True


class RoboRallyDoor:
    """One listening Robo Rally port; ``await door.run(task_status=...)`` inside a nursery.

    A :class:`~swc_local.server.door.Door`: ``handle``, ``stop(reason)``, ``busy()``.
    """

    name = "roborally"

    def __init__(self, settings: RoboRallySettings, game_factory=None) -> None:
        self.settings = settings
        self.port: int | None = None
        self.door: Door | None = None
        self._game_factory = game_factory
        self._nursery: trio.Nursery | None = None
        self.done = trio.Event()
        # the last games only (swc match and tests read them): a door that serves for weeks keeps
        # no finished room, log or connection beyond these
        self.log_files: collections.deque[str] = collections.deque(maxlen=KEEP_FINISHED)
        self.finished_rooms: collections.deque[Room] = collections.deque(maxlen=KEEP_FINISHED)
        self.connections: dict[_Connection, None] = {}  # in the order they came (the oldest idle goes first)
        self._evicted = BurstLog(log)
        self._accepting = trio.CancelScope()
        self._clocks: dict[Room, trio.CancelScope] = {}  # the clock task of every running game
        self.stopping: str | None = None  # why the door was stopped

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(self.settings.port, host=self.settings.host)
        self.port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self.door = Door(self.settings, spawn_room=self._spawn_room, game_factory=self._game_factory)
            log.info("Robo Rally listening on %s:%d", self.settings.host, self.port)
            task_status.started(self)
            nursery.start_soon(self._serve, listeners)
            if not self.settings.single_game and self.settings.ready_timeout > 0:
                nursery.start_soon(self._watch_unready)
            if self.settings.single_game:
                await self.done.wait()
                nursery.cancel_scope.cancel()

    async def _serve(self, listeners) -> None:
        with self._accepting:
            await serve_within_budget(listeners, self.handle, admit=self._admit, evict=self._evict_idle,
                                      logger=log, label="Robo Rally")

    def _idle(self) -> list[_Connection]:
        """Connections not playing (no HelloServer yet, no PlayerValues, spectators), oldest first."""
        return [c for c in self.connections if not c.closing and c.peer.state in IDLE_STATES]

    def _evict_idle(self) -> bool:
        idle = self._idle()
        if not idle:
            return False
        idle[0].close(f"made room for a new connection (at most {self.settings.max_idle} not playing)")
        self._evicted.note("Robo Rally: the oldest connection not playing was closed for a new one (roborally.maxIdle %d)",
                           self.settings.max_idle)
        return True

    def _admit(self) -> str | None:
        """At most ``max_idle`` connections not playing (the oldest makes room for a new one, so
        an honest player always gets in), at most ``max_connections`` in all (then refused)."""
        if len(self.connections) >= self.settings.max_idle and len(self._idle()) >= self.settings.max_idle:
            self._evict_idle()
        open_now = sum(1 for c in self.connections if not c.closing)
        if open_now >= self.settings.max_connections:
            return f"{open_now} connections open (roborally.maxConnections)"
        return None

    def cancel(self) -> None:
        """End at once, every game and connection without a record."""
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()

    def stop(self, reason: str) -> None:
        """Stop accepting; end every game unfinished and close every connection (see above)."""
        self.stopping = reason
        self._accepting.cancel()
        if self.door is not None:
            for room in list(self.door.rooms):
                room.unfinished = reason  # no more moves, removals or timeouts: the game stands
        for scope in self._clocks.values():
            scope.cancel()  # each clock writes its game's log as it ends
        for connection in list(self.connections):
            connection.close(reason)

    def busy(self) -> int:
        return len(self.connections) + len(self._clocks)

    async def handle(self, stream: trio.SocketStream) -> None:
        await self._handle(stream)

    # ------------------------------------------------------------------ connections

    async def _handle(self, stream: trio.SocketStream) -> None:
        try:
            name = "%s:%s" % stream.socket.getpeername()[:2]
        except OSError:
            name = "?"
        connection = _Connection(stream, name, self.settings.write_timeout)
        peer = connection.peer
        assert self.door is not None
        self.connections[connection] = None
        try:
            with connection.scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(connection.write_loop)
                    if self.settings.hello_timeout > 0:
                        nursery.start_soon(self._hello_watch, connection)
                    self.door.accepted(peer)
                    await self._read_loop(connection, nursery)
                    await trio.sleep(math.inf)  # the writer ends the scope after flushing
        finally:
            self.connections.pop(connection, None)
            connection.closing = True
            with trio.CancelScope(shield=True):
                with trio.move_on_after(1):
                    await stream.aclose()
            try:
                self.door.disconnected(peer, connection.reason)
            except Exception:
                log.exception("%r: error while handling the disconnect", peer)

    async def _read_loop(self, connection: _Connection, nursery: trio.Nursery) -> None:
        assert self.door is not None
        peer = connection.peer
        decoder = LineDecoder(self.settings.max_line_bytes)
        alive_started = False
        while not connection.closing:
            try:
                data = await connection.stream.receive_some(RECEIVE_SIZE)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                connection.close("end of stream")
                return
            try:
                events = decoder.feed(data)
            except LineTooLong:
                peer.error("Message too long")
                connection.close("line over the size limit")
                return
            for event in events:
                try:
                    self.door.handle(peer, event)
                except Exception:
                    log.exception("%r: unexpected error handling a message", peer)
                    connection.close("internal error")
                if connection.closing or peer.state == CLOSED:
                    return
                if not alive_started and peer.client_id:
                    alive_started = True
                    nursery.start_soon(self._alive, connection)
            await trio.sleep(0)  # bounded work per read: let the others run

    async def _watch_unready(self) -> None:
        """Close lobby players that hold the others up without ever saying ready (Door.close_unready)."""
        assert self.door is not None
        while True:
            await trio.sleep(min(1.0, self.settings.ready_timeout / 4))
            self.door.close_unready(time.monotonic())

    async def _hello_watch(self, connection: _Connection) -> None:
        await trio.sleep(self.settings.hello_timeout)
        if not connection.peer.client_id:
            connection.close(f"no HelloServer within {self.settings.hello_timeout:g} s")

    async def _alive(self, connection: _Connection) -> None:
        peer = connection.peer
        interval = self.settings.alive_interval
        sent = False
        while not connection.closing:
            await trio.sleep(interval)
            if sent and peer.alive_outstanding:
                log.info("%r: no Alive answer within %g s", peer, interval)
                connection.close("no Alive answer")
                return
            peer.alive_outstanding = True
            sent = True
            peer.send("Alive", {})

    # ------------------------------------------------------------------ rooms

    def _spawn_room(self, room: Room) -> None:
        assert self._nursery is not None
        self._nursery.start_soon(self._room_clock, room)

    async def _room_clock(self, room: Room) -> None:
        """Runs one game's clock; whatever fails in it ends that game only (logged)."""
        scope = self._clocks[room] = trio.CancelScope()
        if self.stopping is not None:
            room.unfinished = self.stopping
            scope.cancel()
        try:
            with scope:
                await self._run_room(room)
        except Exception:
            log.exception("Robo Rally room: internal error; the game ends")
        finally:
            with trio.CancelScope(shield=True):
                await self._close_room(room)
            del self._clocks[room]

    async def _run_room(self, room: Room) -> None:
        game = room.game
        room.clock = trio.current_time
        changed = trio.Event()

        def poke() -> None:
            changed.set()

        room.poke = poke
        seen = None
        since = timer_since = 0.0
        while not game.over:
            wait = game.wait
            now = trio.current_time()
            if wait is not seen:
                seen, since, timer_since = wait, now, None
            if wait is not None and wait.kind == "programming" and wait.timer_started and timer_since is None:
                timer_since = now
            deadline = room.deadline(since, timer_since)
            changed = trio.Event()
            with trio.move_on_at(deadline) as scope:
                await changed.wait()
            if scope.cancelled_caught and game.wait is wait and not game.over:
                try:
                    room.timeout()
                except Exception:
                    log.exception("Robo Rally room: error on a timeout; the game ends")
                    break
        await trio.sleep(self.settings.close_delay)

    async def _close_room(self, room: Room) -> None:
        try:
            for peer in room.lobby.connected():
                peer.close("game over")
            assert self.door is not None
            self.door.room_closed(room)
            self.finished_rooms.append(room)
            if room.unfinished:
                log.info("Robo Rally game stopped before its end (%s)", room.unfinished)
            else:
                log.info("Robo Rally game over, winner %s", room.game.winner)
            planned = room.log_file()
            if planned is not None:  # written in a thread: a large log never stalls the other doors
                path = await trio.to_thread.run_sync(write_log_file, *planned)
                if path:
                    self.log_files.append(path)
        except Exception:
            log.exception("Robo Rally room: error while closing the game")
        finally:
            if self.settings.single_game:
                self.done.set()


async def serve_roborally(settings: RoboRallySettings, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    await RoboRallyDoor(settings).run(task_status=task_status)


# What swc serve reads of this door (server/door.py): its settings section and how it opens.
from swc_local.server.roborally.settings import SECTION, open_door  # noqa: E402,F401
