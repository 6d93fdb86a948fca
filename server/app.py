"""The trio side of the server: listen, run one task per connection, feed the lobby.

Every connection runs in its own cancel scope with a reader loop and a writer task; whatever a
client sends, the worst that can happen is that *its* connection is dropped (and logged).  An
unexpected exception in the lobby or a room is logged with its traceback, the offending
connection is dropped, and its room ends with a result through the normal LEFT path.
"""

from __future__ import annotations

import gc
import logging
import math

import trio

from swc_local.protocol.reader import ProtocolError, StreamEnded, StreamReader
from swc_local.server.config import Settings
from swc_local.server.xml.connection import Connection, begin_batch, end_batch
from swc_local.server.limits import BurstLog, accept_retrying, process_budget, start_process_budget
from swc_local.server.xml.lobby import Lobby

log = logging.getLogger("swc.server")

RECEIVE_SIZE = 65536
FULL_WAIT_SECONDS = 0.25
"""At maxConnections, the accept loop goes on (and refuses) once no connection closed for this long."""
MESSAGES_PER_TURN = 32
"""Messages of one connection handled before the reader yields to every other task."""


class Server:
    """The XML door, and the host of the other doors of ``swc serve`` (server/door.py).

    ``await server.run(task_status=...)`` inside a nursery; :attr:`doors` lists every door it
    started, itself first.
    """

    name = "xml"

    def __init__(self, settings: Settings, game_factory=None) -> None:
        self.settings = settings
        if game_factory is None and settings.load_game_file:
            from swc_local.server.xml.replay import position_factory  # loadGameFile/turnToLoad (spec §7)

            game_factory = position_factory(settings.load_game_file, settings.turn_to_load, settings.default_game)
        self.game_factory = game_factory
        self.replay_writer = None
        self.lobby: Lobby | None = None
        self.connections: set[Connection] = set()
        self.connections_closed = 0  # how many have ended (the accept loop's wait at the limit)
        self.port: int | None = None
        self._nursery: trio.Nursery | None = None
        self._accepting = trio.CancelScope()  # cancelled to stop accepting (shutdown)
        self.budget = process_budget()
        self._refused = BurstLog(log)  # refusals and accept failures: a line per burst, not per try
        self.doors: list = [self]  # every door of this server (server/door.py), in start order
        self.web_renderer = None  # tests may swap the SVG drawing of the viewer

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        self.budget = start_process_budget(log)  # one connection budget for every door (issue 21)
        listeners = await trio.open_tcp_listeners(self.settings.port, host=self.settings.host)
        self.port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self.lobby = Lobby(self.settings, spawn=nursery.start_soon, game_factory=self.game_factory)
            if self.settings.save_replay:
                from swc_local.server.xml.replay import ReplayWriter  # saveReplay/replayDir (spec §7)

                self.replay_writer = ReplayWriter(self.settings.replay_dir, self._replay_header())
                self.replay_writer.attach(self.lobby)
            log.info("listening on %s:%d", self.settings.host, self.port)
            from swc_local.server.door import start_doors  # every door of the registry, the viewer last

            self.doors = await start_doors(nursery, self)
            task_status.started(self)
            with self._accepting:
                async with trio.open_nursery() as accepting:
                    for listener in listeners:
                        accepting.start_soon(self._accept_loop, listener, nursery)
            await trio.sleep_forever()  # connections and rooms live on until cancel()

    def _replay_header(self) -> dict[str, str]:
        loaded = self.settings.load_game_file
        return {"loadGameFile": loaded, "turnToLoad": str(self.settings.turn_to_load)} if loaded else {}

    def door(self, name: str):
        """The running door called ``name`` (``reversixt``, ``roborally``, ``web`` ...), or None."""
        return next((door for door in self.doors if door.name == name), None)

    def cancel(self) -> None:
        """End at once: every task of this server and of the doors it hosts is cancelled."""
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()

    def stop_accepting(self) -> None:
        """Close the listening sockets; open connections go on (the first step of a shutdown)."""
        self._accepting.cancel()
        log.info("no longer accepting connections")

    def stop(self, reason: str) -> None:
        """The XML door's end (server/door.py): every running game ends as an admin's ``cancel``
        ends it (``left``, no result, its replay marked ``unfinished``), rooms still waiting are
        removed, every connection gets ``CloseConnection`` and ``</protocol>``."""
        self.stop_accepting()
        if self.lobby is not None:
            for room in list(self.lobby.rooms.values()):
                try:
                    room.stop(reason)
                except Exception:  # one broken room must not keep the others from ending
                    log.exception("room %s: error while stopping it", room.id)
        for connection in list(self.connections):
            connection.close_politely(reason)

    def busy(self) -> int:
        return len(self.connections)

    async def handle(self, stream: trio.SocketStream) -> None:
        await self._handle_and_close(stream)

    async def shutdown(self, why: str = "server stopped") -> None:
        """End every game and connection the documented way, then stop (server/shutdown.py)."""
        from swc_local.server.shutdown import stop_gracefully

        await stop_gracefully(self, why)

    async def _accept_loop(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        """What ``trio.serve_listeners`` does, less its ``aclose_forcefully`` after every handler
        (a cancelled checkpoint: an exception raised and caught per connection, a tenth of the
        cost of a wrong-passphrase connection): :meth:`_handle` closes its stream itself."""
        async with listener:
            while True:
                stream = await accept_retrying(listener, self._refused)
                try:
                    await self._wait_for_a_free_slot()  # the next ones wait in the kernel's queue
                except BaseException:  # the server stops meanwhile: do not leak the socket
                    await trio.aclose_forcefully(stream)
                    raise
                nursery.start_soon(self._handle_and_close, stream)

    async def _wait_for_a_free_slot(self) -> None:
        """At ``maxConnections``, hold the connection just accepted while connections keep closing.

        A flood of short-lived connections (wrong passphrases) frees slots within milliseconds:
        the client just accepted then gets a slot instead of being refused, and the ones after it
        wait in the kernel's accept queue, so an honest player arriving during the flood gets in.
        A limit held by lasting connections (none closed for FULL_WAIT_SECONDS) still refuses, in
        :meth:`_handle`.
        """
        closed, since = self.connections_closed, trio.current_time()
        while len(self.connections) >= self.settings.max_connections:
            await trio.sleep(0.01)
            if self.connections_closed != closed:
                closed, since = self.connections_closed, trio.current_time()
            elif trio.current_time() - since >= FULL_WAIT_SECONDS:
                return

    async def _handle_and_close(self, stream: trio.SocketStream) -> None:
        try:
            await self._handle(stream)
        finally:
            if stream.socket.fileno() != -1:  # not closed yet (the handler failed): close it now
                await trio.aclose_forcefully(stream)

    async def _handle(self, stream: trio.SocketStream) -> None:
        try:
            peer = "%s:%s" % stream.socket.getpeername()[:2]
        except OSError:
            peer = "?"
        full = len(self.connections) >= self.settings.max_connections
        if full or not self.budget.try_acquire():
            why = "(maxConnections)" if full else "in the whole process (its file limit)"
            self._refused.note("connection from %s refused: %d connections open %s", peer, len(self.connections), why)
            with trio.move_on_after(1):
                await stream.send_all(b"<protocol/>")
                await stream.aclose()
            return
        try:
            await self._serve(stream, peer)
        finally:
            self.budget.release()

    async def _serve(self, stream: trio.SocketStream, peer: str) -> None:
        connection = Connection(stream, peer)
        connection.fallback_dialect = self.settings.lobby_dialect
        self.connections.add(connection)
        # DEBUG, like the last line of a connection that never joined: a flood of short-lived
        # connections must not cost the server a log line each (the reason of a drop stays INFO).
        log.debug("%r opened", connection)
        try:
            with connection.cancel_scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(connection.write_loop)
                    await self._read_loop(connection, stream)
                    # The nursery now waits for the writer to flush and close (no sleep to be
                    # cancelled: an exception per connection saved).
                    connection.reading = False
        finally:
            self.connections.discard(connection)
            self.connections_closed += 1
            try:
                assert self.lobby is not None
                await self._leave_rooms_in_batches(connection)
                self.lobby.disconnected(connection)
            except Exception:
                log.exception("%r: error while cleaning up after the connection", connection)
            log.log(logging.INFO if connection.engaged else logging.DEBUG, "%r closed", connection)

    async def _leave_rooms_in_batches(self, connection: Connection) -> None:
        """End the rooms of a connection with many seats a batch at a time (each end renders a
        result), yielding between batches so the goodbye of one client never stalls the others."""
        with trio.CancelScope(shield=True):  # the rooms must end even while the server stops
            for count, slot in enumerate(list(connection.slots), 1):
                if slot in connection.slots:
                    slot.room.on_disconnect(slot)
                if count % MESSAGES_PER_TURN == 0:
                    await trio.lowlevel.checkpoint()

    async def _read_loop(self, connection: Connection, stream: trio.SocketStream) -> None:
        assert self.lobby is not None
        reader = StreamReader(self.settings.max_message_bytes, self.settings.max_depth)
        idle_timeout = self.settings.idle_timeout
        # The idle timeout is a deadline on the reads of a connection that has not joined or
        # authenticated yet, not a task of its own: a short-lived connection then costs no timer
        # task to start and cancel (issue 15, a flood of wrong passphrases).
        idle_deadline = trio.current_time() + idle_timeout if idle_timeout > 0 else math.inf
        while not connection.closing:
            try:
                if connection.engaged or idle_deadline == math.inf:
                    data = await connection.receive_some(RECEIVE_SIZE)
                else:
                    data = None
                    with trio.move_on_at(idle_deadline):
                        data = await connection.receive_some(RECEIVE_SIZE)
                    if data is None:
                        self._idle_timed_out(connection)
                        continue  # dropped, or it joined meanwhile: then it reads on
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                connection.drop("connection lost (end of stream)")
                return
            try:
                events = reader.feed(data)
            except ProtocolError as error:
                connection.protocol_error = True
                connection.drop(f"protocol error: {error}")
                return
            if connection.muted:
                continue
            for count, event in enumerate(events, 1):
                if count % MESSAGES_PER_TURN == 0:
                    # One write may hold thousands of messages: let every other task run
                    # between batches, so no connection's input can stall the other games.
                    await trio.lowlevel.checkpoint()
                    if connection.closing:
                        return
                if isinstance(event, StreamEnded):
                    connection.drop("the client ended its stream")
                    return
                begin_batch()  # what the message queues is written once it is handled
                try:
                    self.lobby.receive(connection, event.element)
                except Exception:
                    log.exception("%r: unexpected error handling <%s>", connection, event.element.tag)
                    connection.drop("internal error")
                finally:
                    end_batch()
                if connection.closing:
                    return

    def _idle_timed_out(self, connection: Connection) -> None:
        # Only connections that never joined or authenticated: after a game ends the official
        # server keeps a player's connection open for as long as the client likes.
        if not connection.engaged and not connection.closing:
            connection.drop(f"idle for {self.settings.idle_timeout:g} s without joining or authenticating")


async def serve(settings: Settings, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Run a server until cancelled."""
    await Server(settings).run(task_status=task_status)


def run(settings: Settings, game_factory=None) -> None:
    """``trio.run`` the server until Ctrl-C, with plain exceptions for the command line.

    trio >= 0.25 raises errors from inside nurseries as exception groups; the command line
    wants a plain KeyboardInterrupt (stop quietly) or the first OSError (cannot listen).
    """
    # A long-running server allocates many short-lived objects per move; raising the first
    # GC threshold and freezing start-up objects cut server CPU per move by about 15% at 500
    # rooms (benchmarks/README.md). Only here, not for servers run inside a test process.
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    from swc_local.server.shutdown import serve_until_signalled  # SIGTERM/SIGINT: a clean stop

    try:
        trio.run(serve_until_signalled, Server(settings, game_factory=game_factory))
        log.info("stopped")
    except BaseExceptionGroup as group:
        raise _first_leaf(group) from None


def _first_leaf(group: BaseExceptionGroup) -> BaseException:
    interrupts, rest = group.split(KeyboardInterrupt)
    chosen = interrupts if interrupts is not None else rest
    while isinstance(chosen, BaseExceptionGroup):
        chosen = chosen.exceptions[0]
    return chosen


# The XML door in server/door.py's one list: this module is still its door (the host listens on
# its port itself, before the other doors open) and its settings section is server/xml/settings.py.
from swc_local.server.xml.settings import SECTION  # noqa: E402,F401


async def open_door(nursery: trio.Nursery, host: Server) -> Server:
    """The XML door is the host itself, already listening."""
    return host
