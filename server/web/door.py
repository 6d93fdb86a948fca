"""Serving the viewer: hypercorn's trio worker runs the starlette app in the server's own trio
process, so the viewer reads rooms and doors directly, without copies or threads."""

from __future__ import annotations

import logging

import trio
from hypercorn.config import Config
from hypercorn.trio import serve

from .app import WebContext, build_app

log = logging.getLogger("swc.web")

DEFAULT_PORT = 13080


class WebDoor:
    """``await nursery.start(door.run)``; ``door.port`` is the bound port afterwards."""

    def __init__(self, context: WebContext, host: str, port: int) -> None:
        self.context = context
        self.host = host
        self.port = port
        self.url = ""
        self._stop = trio.Event()

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        config = Config()
        host = f"[{self.host}]" if ":" in self.host else self.host
        config.bind = [f"{host}:{self.port}"]
        config.accesslog = None
        config.errorlog = logging.getLogger("swc.web.http")
        config.graceful_timeout = 1.0
        config.keep_alive_timeout = 30.0
        config.websocket_max_message_size = 1 << 16
        async with trio.open_nursery() as nursery:
            self.context.feeds.nursery = nursery  # the live feeds' tasks (server/web/live.py)
            binds = await nursery.start(self._serve, config, nursery.cancel_scope)
            self.url = binds[0] if binds else ""
            self.port = int(self.url.rsplit(":", 1)[1]) if self.url else self.port
            log.info("viewer on %s", self.url)
            task_status.started(self)

    async def _serve(self, config: Config, feeds: trio.CancelScope, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        await serve(build_app(self.context), config, shutdown_trigger=self._stop.wait, task_status=task_status)
        feeds.cancel()  # the server stopped: no page is left to feed

    def stop(self) -> None:
        self._stop.set()


async def start_beside(nursery: trio.Nursery, server) -> WebDoor | None:
    """The viewer of ``swc serve``: it watches the XML lobby and the other doors; None when off or
    when its port cannot be opened (logged; the game ports go on)."""
    from .auth import Gate
    from .book import GameBook
    from . import reversixt_games, roborally_games, xml_games

    settings = server.settings
    book = GameBook()
    lobby = server.lobby
    xml_games.watch_lobby(lobby, book)
    if server.reversixt_door is not None:
        reversixt_games.watch_door(server.reversixt_door, book)
    if server.roborally is not None and server.roborally.door is not None:
        roborally_games.watch_door(server.roborally.door, book)
    gate = Gate(settings.host, settings.password, lobby.passphrase_gate)
    context = WebContext(book, gate, lobby, max_message_bytes=settings.max_message_bytes, max_depth=settings.max_depth)
    if server.web_renderer is not None:
        context.renderer = server.web_renderer
    door = WebDoor(context, settings.host, settings.viewer_port)
    try:
        return await nursery.start(door.run)
    except (OSError, BaseExceptionGroup) as raised:  # the door's own nursery wraps the bind error
        bind_errors, rest = raised.split(OSError) if isinstance(raised, BaseExceptionGroup) else (raised, None)
        if bind_errors is None or rest is not None:
            raise
        while isinstance(bind_errors, BaseExceptionGroup):
            bind_errors = bind_errors.exceptions[0]
        log.error("viewer cannot listen on %s:%d (%s); serving without it", settings.host, settings.viewer_port, bind_errors)
        return None
