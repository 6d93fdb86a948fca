"""Serving the viewer: hypercorn's trio worker runs the starlette app in the server's own trio
process, so the viewer reads rooms and doors directly, without copies or threads; the viewer's
own accept loop (server/web/accept.py) caps connections per peer address before hypercorn sees
them.

Inside ``swc serve`` the viewer is the last door of server/doors.py's one tuple (it watches the
games of every door started before it) and a :class:`~swc_local.server.door.Door` like the
others: the shutdown calls :meth:`WebDoor.stop`, every open page's event stream ends after the
events it has (a complete response, so the page shows the game as it was, not an error), and
:meth:`WebDoor.busy` is 0 once hypercorn has closed every connection.  Its section is the one
key ``viewerPort`` and the flag ``--viewer-port``: in-process servers have no viewer unless a
port is set; ``swc serve`` opens it on 13080 (a free port when ``--port 0``); -1 is off.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import trio

from swc_local.server.door import ServerFamily, cannot_listen

from .accept import PeerConnections
from .settings import KEEP_ALIVE_SECONDS, LISTEN_BACKLOG, SECTION

if TYPE_CHECKING:
    from hypercorn.config import Config

    from .context import WebContext

# hypercorn and starlette are imported when a viewer opens, not when swc serve reads this door's
# settings section (server/doors.py imports every door's section, a viewer or not).

log = logging.getLogger("swc.web")

GRACEFUL_SECONDS = 0.5
"""After a stop, how long hypercorn lets connections finish their responses (every event stream
ends at once, so this is for sending the last bytes) before it cuts them: well inside the
shutdown's grace (server/shutdown.py), whatever number of pages is open (issue 34)."""


class WebDoor:
    """``await nursery.start(door.run)``; ``door.port`` is the bound port afterwards."""

    name = "web"

    def __init__(self, context: WebContext, host: str, port: int) -> None:
        self.context = context
        self.host = host
        self.port = port
        self.url = ""
        self.stopping: str | None = None
        self._stop = trio.Event()
        self._serving = False
        self.config: Config | None = None
        self.peers = PeerConnections(context.limits.max_connections_per_peer)
        """Open connections per peer address, capped when accepted (server/web/accept.py)."""

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        from hypercorn.config import Config

        config = Config()
        host = f"[{self.host}]" if ":" in self.host else self.host
        config.bind = [f"{host}:{self.port}"]
        config.accesslog = None
        config.errorlog = logging.getLogger("swc.web.http")
        config.graceful_timeout = GRACEFUL_SECONDS
        config.backlog = LISTEN_BACKLOG  # as deep as the game doors' (issue 34)
        config.keep_alive_timeout = KEEP_ALIVE_SECONDS  # an idle connection is closed after it
        # no read_timeout: hypercorn applies it to every read, and a page's event stream sends
        # nothing for minutes; a slow body has its own deadline (app.read_body), a slow or idle
        # head the keep-alive timeout
        config.h11_max_incomplete_size = 16384  # the largest request head
        config.websocket_max_message_size = 1 << 16
        self.config = config
        self._serving = True
        try:
            async with trio.open_nursery() as nursery:
                self.context.feeds.nursery = nursery  # the live feeds' tasks (server/web/live.py)
                if self.context.tables is not None:
                    self.context.tables.nursery = nursery  # persons' clients and bots (server/web/table_host.py)
                binds = await nursery.start(self._serve, config, nursery.cancel_scope)
                self.url = binds[0] if binds else ""
                self.port = int(self.url.rsplit(":", 1)[1]) if self.url else self.port
                log.info("viewer on %s", self.url)
                task_status.started(self)
        finally:
            self._serving = False

    async def _serve(self, config: Config, feeds: trio.CancelScope, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        from .accept import serve
        from .app import build_app

        await serve(build_app(self.context), config, self.peers, shutdown_trigger=self._stop.wait, task_status=task_status)
        feeds.cancel()  # the server stopped: no page is left to feed

    def stop(self, reason: str = "viewer stopped") -> None:
        """Stop accepting; every open page's event stream ends; hypercorn closes each connection
        once its response is complete (at most its graceful timeout, 1 s, later)."""
        self.stopping = reason
        self.context.feeds.close()
        if self.context.tables is not None:
            self.context.tables.close_all(reason)
        self._stop.set()

    def busy(self) -> int:
        """Event streams still open, plus one while hypercorn still serves."""
        return self.context.open_streams[0] + (1 if self._serving else 0)

    async def handle(self, stream: trio.SocketStream) -> None:
        """Not used: the viewer's own accept loop hands its connections to hypercorn (server/web/accept.py)."""
        raise NotImplementedError("the viewer's connections are served by hypercorn")


def watch_doors(families, doors, book) -> None:
    """Show the live games of every door whose family offers ``watch_for_viewer`` (server/door.py's
    ServerFamily); a family without it is served but not shown."""
    watchers = {family.name: family.watch_for_viewer for family in families if family.watch_for_viewer is not None}
    for door in doors:
        watch = watchers.get(door.name)
        if watch is not None:
            watch(door, book)


def borrow_from_doors(families, doors, context: WebContext) -> None:
    """What each started door's family lends the viewer besides records (its ``share_with_viewer``:
    a passphrase gate to share, "play from here", its persons' tables, its readers' limits)."""
    sharers = {family.name: family.share_with_viewer for family in families if family.share_with_viewer is not None}
    for door in doors:
        share = sharers.get(door.name)
        if share is not None:
            share(door, context)


def register_person_tables(families, tables) -> None:
    """The persons' tables of every family that offers them whether or not its door runs (its
    ``person_tables`` hook: ReversiXT, Robo Rally start a door of their own per table)."""
    for family in families:
        if family.person_tables is not None:
            tables.register(family.person_tables())


async def open_door(nursery: trio.Nursery, server) -> WebDoor | None:
    """The viewer of ``swc serve``: it watches the games of every door started before it; None
    when off; a port it cannot open stops the server (server/door.py's CannotListen).

    The host hands it the families (``server.families``): the viewer sits below them and imports
    none (tests/packaging/test_layers.py), so what each family shows or lends comes through the
    family's hooks."""
    from .context import WebContext
    from .auth import Gate
    from .book import GameBook
    from .files import family_readers, upload_readers
    from .table_host import TableHost

    settings, families = server.settings, server.families
    limits = settings.section("web")
    port = limits.port
    if port is None or port < 0:
        return None
    book = GameBook()
    watch_doors(families, server.doors, book)
    context = WebContext(book, Gate(settings.host, settings.password), limits=limits,
                         readers=family_readers(families), upload_readers=upload_readers(families))
    context.tables = TableHost(book, house=server, seed=settings.seed)
    borrow_from_doors(families, server.doors, context)
    register_person_tables(families, context.tables)
    if server.web_renderer is not None:
        context.renderer = server.web_renderer
    context.tables.resolve_command = server.command_resolver
    door = WebDoor(context, settings.host, port)
    try:
        return await nursery.start(door.run)
    except (OSError, BaseExceptionGroup) as raised:  # the door's own nursery wraps the bind error
        raise cannot_listen(raised, "web viewer", settings.host, port, "--viewer-port", "--viewer-port -1",
                            key="viewerPort") from None


VIEWER = ServerFamily("web", SECTION, open_door)
"""The viewer as a door of ``swc serve`` (server/doors.py): its section and how it opens."""
