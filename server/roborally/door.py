"""The Robo Rally front door on trio: lines in and out, Alive, room clocks.

Connections live on the shared transport (server/transport.py): each has a reader (bounded
reads through :class:`~swc_local.protocol.roborally.LineDecoder`), a writer draining a byte queue
with the write deadline ``writeTimeout`` (so the synchronous lobby never waits on a socket), the
``helloTimeout`` as the deadline of its reads until ``Welcome`` and, after it, an ``Alive`` task
(spec roborally.md §7.1). Each running game has one clock task
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
import time

import trio

from swc_local.protocol.roborally import LineDecoder, LineTooLong
from swc_local.server import transport
from swc_local.server.door import cannot_listen
from swc_local.server.finished_games import RecentGames
from swc_local.server.limits import BurstLog
from swc_local.server.roborally.settings import RoboRallySettings, roborally_settings
from swc_local.server.roborally.lobby import NEW, SPECTATOR, WELCOMED, Peer, Switchboard
from swc_local.server.roborally.logwriter import write_log_file
from swc_local.server.roborally.room import Room

log = logging.getLogger("swc.roborally")

KEEP_FINISHED = 100
"""Finished rooms and log paths a door remembers (for swc match and tests); older ones are forgotten."""
IDLE_STATES = (NEW, WELCOMED, SPECTATOR)

MAX_QUEUED_BYTES = 16 << 20
STALLED_SECONDS = 1.0
"""Over MAX_QUEUED_BYTES, a client is dropped only if none of its writes finished for this long:
a reader that reads keeps its connection whatever others made the door queue for it."""


class _Connection(transport.Connection):
    """A Robo Rally client on the shared transport: lines in, lines out, the lobby's ``Peer``."""

    codec_errors = (LineTooLong,)
    max_queued_bytes = MAX_QUEUED_BYTES

    def __init__(self, stream: trio.SocketStream, name: str, door: RoboRallyDoor) -> None:
        super().__init__(stream, name)
        settings = door.settings
        self.switchboard = door.switchboard
        self.alive = door._alive
        self.codec = LineDecoder(settings.max_line_bytes)
        self.write_timeout = settings.write_timeout
        self.idle_timeout = settings.hello_timeout  # until its HelloServer
        self.progress = trio.current_time()  # when a write last finished, or data began to wait
        self.peer = Peer(self.write, self.hang_up, name)

    def __repr__(self) -> str:
        return repr(self.peer)

    def write(self, data: bytes) -> None:
        if self.closing or self.lost:
            return
        if not self._queue and not self._writing:
            self.progress = trio.current_time()  # nothing was waiting: the client is not behind
        self._push(data)

    def _overflow(self) -> None:
        if trio.current_time() - max(self.progress, self._last_send) > STALLED_SECONDS:
            self.hang_up("the client reads nothing (output queue full)")

    def received(self, event) -> None:
        self.switchboard.handle(self.peer, event)
        if not self.engaged and self.peer.client_id:
            self.engaged = True  # welcomed: no hello deadline, and its Alive heartbeat starts
            self.start_helper(self.alive, self)

    def undecodable(self, error: BaseException) -> None:
        self.peer.error("Message too long")
        self.hang_up("line over the size limit")

    def stream_ended(self) -> None:
        self.hang_up("end of stream")

    def idle_ended(self) -> None:
        self.hang_up(f"no HelloServer within {self.idle_timeout:g} s")


class RoboRallyDoor:
    """One listening Robo Rally port; ``await door.run(task_status=...)`` inside a nursery.

    A :class:`~swc_local.server.door.Door`: ``handle``, ``stop(reason)``, ``busy()``.
    """

    name = "roborally"

    def __init__(self, settings: RoboRallySettings, game_factory=None) -> None:
        self.settings = settings
        self.port: int | None = None
        self.switchboard: Switchboard | None = None
        self._game_factory = game_factory
        self._nursery: trio.Nursery | None = None
        self.done = trio.Event()
        # the last games only (swc match and tests read them): a door that serves for weeks keeps
        # no finished room, log or connection beyond these
        self.log_files: collections.deque[str] = collections.deque(maxlen=KEEP_FINISHED)
        self.finished_rooms: collections.deque[Room] = collections.deque(maxlen=KEEP_FINISHED)
        self.games_ended = 0  # by the rules, all of them, not only the last KEEP_FINISHED
        self.recent = RecentGames()  # the last ones, for the stop's summary
        self._evicted = BurstLog(log)
        self.transport = transport.Transport(
            "Robo Rally", log, max_connections=settings.max_connections, connect=self._connect,
            serve=self._serve_connection, admit=self._admit, evict=self._evict_idle, close=_hang_up)
        self._clocks: dict[Room, trio.CancelScope] = {}  # the clock task of every running game

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        self.port = await self.transport.listen(self.settings.port, self.settings.host)
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self.switchboard = Switchboard(self.settings, spawn_room=self._spawn_room, game_factory=self._game_factory)
            log.info("Robo Rally listening on %s:%d", self.settings.host, self.port)
            task_status.started(self)
            nursery.start_soon(self.transport.run, nursery)
            if not self.settings.single_game and self.settings.ready_timeout > 0:
                nursery.start_soon(self._watch_unready)
            if self.settings.single_game:
                await self.done.wait()
                nursery.cancel_scope.cancel()

    @property
    def connections(self) -> dict[_Connection, None]:
        """Open connections in the order they came (the oldest idle goes first)."""
        return self.transport.connections  # type: ignore[return-value]

    def _idle(self) -> list[_Connection]:
        """Connections not playing (no HelloServer yet, no PlayerValues, spectators), oldest first."""
        return [c for c in self.connections if not c.closing and c.peer.state in IDLE_STATES]

    def _evict_idle(self) -> bool:
        idle = self._idle()
        if not idle:
            return False
        idle[0].hang_up(f"made room for a new connection (at most {self.settings.max_idle} not playing)")
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
        if self.switchboard is not None:
            for room in list(self.switchboard.rooms):
                room.unfinished = reason  # no more moves, removals or timeouts: the game stands
        for scope in self._clocks.values():
            scope.cancel()  # each clock writes its game's log as it ends
        self.transport.stop(reason)

    def busy(self) -> int:
        return len(self.connections) + len(self._clocks)

    def games_finished(self) -> int:
        """Games ended by the rules since the door opened (the stop's summary)."""
        return self.games_ended

    def recent_games(self) -> list[tuple[int, str]]:
        """The last games ended by the rules, one line each (server/finished_games.py)."""
        return self.recent.lines()

    async def handle(self, stream: trio.SocketStream) -> None:
        await self.transport.handle(stream)

    # ------------------------------------------------------------------ connections

    def _connect(self, stream: trio.SocketStream, name: str) -> _Connection:
        return _Connection(stream, name, self)

    async def _serve_connection(self, connection: _Connection) -> None:
        assert self.switchboard is not None
        peer = connection.peer
        try:
            self.switchboard.accepted(peer)
            await connection.serve()
        finally:
            connection.closing = True
            try:
                self.switchboard.disconnected(peer, connection.reason)
            except Exception:
                log.exception("%r: error while handling the disconnect", peer)

    async def _watch_unready(self) -> None:
        """Close lobby players that hold the others up without ever saying ready (Switchboard.close_unready)."""
        assert self.switchboard is not None
        while True:
            await trio.sleep(min(1.0, self.settings.ready_timeout / 4))
            self.switchboard.close_unready(time.monotonic())

    async def _alive(self, connection: _Connection) -> None:
        peer = connection.peer
        interval = self.settings.alive_interval
        sent = False
        while not connection.closing:
            await trio.sleep(interval)
            if sent and peer.alive_outstanding:
                log.info("%r: no Alive answer within %g s", peer, interval)
                connection.hang_up("no Alive answer")
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
        if self.transport.stopping is not None:
            room.unfinished = self.transport.stopping
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
            assert self.switchboard is not None
            self.switchboard.room_closed(room)
            self.finished_rooms.append(room)
            if room.unfinished:
                log.info("Robo Rally game stopped before its end (%s)", room.unfinished)
            else:
                self.games_ended += 1
                log.info("Robo Rally game over, winner %s", room.game.winner)
                self.recent.add(f"roborally game: winner {room.game.winner}")
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


def _hang_up(connection: _Connection, reason: str) -> None:
    """How a stopping door ends a connection: once what was queued for it is sent (spec §7)."""
    connection.hang_up(reason)


# What the web viewer reads of this family (its ServerFamily's viewer hooks, server/roborally/family.py);
# its records (server/roborally/records.py) are imported only when a viewer runs or a file is opened.


def watch_for_viewer(door: RoboRallyDoor, book) -> None:
    """Every game of the door's lobby gets a record in the viewer's ``book``, fed by its room."""
    if door.switchboard is None:
        return
    from swc_local.server.roborally.records import watch_door

    watch_door(door.switchboard, book)


def read_record_file(data: bytes, source: str):
    """A game log (JSON lines, ``--replays``); None for a file that does not start with ``{``."""
    if data.lstrip()[:1] != b"{":
        return None
    from swc_local.server.roborally.records import read_game_log

    return read_game_log(data.decode("utf-8", "replace"), source)


async def open_door(nursery, host):
    """Start the door as its own task in ``nursery``; None if it is off; a port it cannot open
    stops the server (server/door.py's CannotListen, as for every door)."""
    settings = host.settings
    roborally = roborally_settings(settings)
    if roborally is None:
        return None
    try:
        return await nursery.start(RoboRallyDoor(roborally).run)
    except (OSError, BaseExceptionGroup) as raised:
        raise cannot_listen(raised, "Robo Rally door", roborally.host, roborally.port, "--roborally-port",
                            "--roborally-port -1", key="roborally.port") from None
