"""The XML door (Software-Challenge, port 13050): its lobby, rooms and connections on the shared
transport (server/transport.py).

Every connection runs in its own cancel scope with a reader loop and a writer task; whatever a
client sends, the worst that can happen is that *its* connection is dropped (and logged).  An
unexpected exception in the lobby or a room is logged with its traceback, the offending
connection is dropped, and its room ends with a result through the normal LEFT path.  A
connection refused at ``maxConnections`` (or by the process's budget) gets ``<protocol/>``.
"""

from __future__ import annotations

import logging

import trio

from swc_local.server.door import cannot_listen
from swc_local.server.transport import ACCEPT_BURST, FULL_WAIT_SECONDS, MESSAGES_PER_TURN, Transport
from swc_local.server.xml.connection import Connection
from swc_local.server.xml.lobby import Lobby
from swc_local.server.xml.settings import XmlDoorSettings, XmlSettings, door_settings

log = logging.getLogger("swc.server")


class XmlDoor:
    """``await door.run(task_status=...)`` inside a nursery; the started value is the door.

    A :class:`~swc_local.server.door.Door`: ``handle``, ``stop(reason)``, ``busy()``.
    """

    name = "xml"

    def __init__(self, settings: XmlDoorSettings, game_factory=None) -> None:
        """``settings``: this door's own (server/xml/settings.py's :func:`door_settings` of the
        house's), which the XML modules read; ``game_factory`` makes the game of every room (tests,
        ``swc match``: a given position; by default ``loadGameFile``'s or a new game)."""
        self.settings = settings
        if game_factory is None and settings.load_game_file:
            from swc_local.server.xml.replay import position_factory  # loadGameFile/turnToLoad (spec §7)

            game_factory = position_factory(settings.load_game_file, settings.turn_to_load, settings.default_game)
        self.game_factory = game_factory
        self.replay_writer = None
        self.lobby: Lobby | None = None
        self.port: int | None = None
        self._nursery: trio.Nursery | None = None  # connections and rooms run here
        self.transport = Transport("xml", log, max_connections=settings.max_connections, connect=self._connect,
                                   serve=self._serve, refuse=_refuse, full_wait=FULL_WAIT_SECONDS,
                                   accept_burst=ACCEPT_BURST)  # the lobby pairs by messages, not by arrival

    @property
    def connections(self) -> dict[Connection, None]:
        return self.transport.connections  # type: ignore[return-value]

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        self.port = await self.transport.listen(self.settings.port, self.settings.host)
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self.lobby = Lobby(self.settings, spawn=nursery.start_soon, game_factory=self.game_factory)
            if self.settings.save_replay:
                from swc_local.server.xml.replay import ReplayWriter  # saveReplay/replayDir (spec §7)

                self.replay_writer = ReplayWriter(self.settings.replay_dir, self._replay_header())
                self.replay_writer.attach(self.lobby)
            log.info("listening on %s:%d", self.settings.host, self.port)
            task_status.started(self)
            await self.transport.run(nursery)
            await trio.sleep_forever()  # connections and rooms live on until cancelled

    def _replay_header(self) -> dict[str, str]:
        loaded = self.settings.load_game_file
        return {"loadGameFile": loaded, "turnToLoad": str(self.settings.turn_to_load)} if loaded else {}

    def stop_accepting(self) -> None:
        """Close the listening sockets; open connections go on (the first step of a shutdown)."""
        self.transport.stop_accepting()
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
        self.transport.stop(reason)

    def busy(self) -> int:
        return len(self.connections)

    def games_finished(self) -> int:
        """Rooms ended since the door opened, by the rules or an admin (the stop's summary)."""
        return self.lobby.rooms_finished if self.lobby is not None else 0

    def recent_games(self) -> list[tuple[int, str]]:
        """The last rooms ended, one line each (server/finished_games.py)."""
        return self.lobby.recent_games.lines() if self.lobby is not None else []

    async def handle(self, stream: trio.SocketStream) -> None:
        await self.transport.handle(stream)

    def _connect(self, stream: trio.SocketStream, peer: str) -> Connection:
        return Connection(stream, peer, lobby=self.lobby, settings=self.settings)

    async def _serve(self, connection: Connection) -> None:
        # DEBUG, like the last line of a connection that never joined: a flood of short-lived
        # connections must not cost the server a log line each (the reason of a drop stays INFO).
        log.debug("%r opened", connection)
        try:
            await connection.serve()
        finally:
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


async def _refuse(stream: trio.SocketStream) -> None:
    """The official answer to a connection over the limit: an empty stream, then the close."""
    with trio.move_on_after(1):
        await stream.send_all(b"<protocol/>")
        await stream.aclose()


def prepare(host) -> XmlDoor:
    """The XML door, built with the host from the house's settings (its section and the house's
    fields it shares): a ``loadGameFile`` it cannot use raises when the host is built
    (ReplayError), before any door listens."""
    return XmlDoor(door_settings(host.settings))


async def open_door(nursery: trio.Nursery, host) -> XmlDoor:
    """Start the door :func:`prepare` built; a port it cannot open stops ``swc serve`` (exit 1),
    as for every door."""
    door = host.prepared.get(XmlDoor.name) or prepare(host)
    try:
        return await nursery.start(door.run)
    except (OSError, BaseExceptionGroup) as raised:
        raise cannot_listen(raised, "XML door", door.settings.host, door.settings.port, "--port", key="port") from None


# What the web viewer reads of this family (its ServerFamily's viewer hooks, server/xml/family.py);
# its records (server/xml/records.py) are imported only when a viewer runs or a file is opened.


def watch_for_viewer(door: XmlDoor, book) -> None:
    """Every room of the door's lobby gets a record in the viewer's ``book`` from its first state."""
    from swc_local.server.xml.records import watch_lobby

    watch_lobby(door.lobby, book)


def share_with_viewer(door: XmlDoor, context) -> None:
    """What the XML door lends the viewer (server/web/app.py's WebContext): its lobby's passphrase
    limits (one budget of guesses for the wire and the pages), "play from here", its persons'
    tables (server/xml/seats.py, clients of this door's port, registered with the viewer's table
    host) and its readers' limits for opened and uploaded replays."""
    from functools import partial

    from swc_local.server.xml.play import prepare_from
    from swc_local.server.xml.seats import Tables

    lobby, settings = door.lobby, door.settings
    context.gate.limiter = lobby.passphrase_gate
    context.play_from = partial(prepare_from, lobby)
    limits = {"max_message_bytes": settings.max_message_bytes, "max_depth": settings.max_depth}
    context.readers[XmlDoor.name] = partial(read_record_file, **limits)
    context.upload_readers[XmlDoor.name] = partial(read_upload, **limits)
    if door.port and context.tables is not None:
        context.tables.register(Tables(lobby, settings.host, door.port).family_tables())


_LIMITS = XmlSettings()  # the reader's limits of a file opened without a door (swc view): the door's defaults


def read_record_file(data: bytes, source: str, *, max_message_bytes: int = _LIMITS.max_message_bytes,
                     max_depth: int = _LIMITS.max_depth):
    """An XML replay (ours or an official server's), read with the game ports' reader and limits."""
    from swc_local.server.xml.records import read_xml_replay

    return read_xml_replay(data, source, max_message_bytes, max_depth)


async def read_upload(data: bytes, source: str, limit: int, *, max_message_bytes: int = _LIMITS.max_message_bytes,
                      max_depth: int = _LIMITS.max_depth):
    """An uploaded XML replay, read in a child process (server/xml/read_apart.py: the XML reader
    in a thread stalls the games); None for a file that is no XML."""
    from swc_local.server.xml.read_apart import open_apart

    return await open_apart(data, source, limit, max_message_bytes=max_message_bytes, max_depth=max_depth)
